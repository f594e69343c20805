#include <iostream>

#include "command_line.hpp"

int main(int argc, char** argv) {
  return quixo::run_engine_command_line(argc, argv, std::cout, std::cerr);
}
