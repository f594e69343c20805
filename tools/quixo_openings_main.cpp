// quixo-openings: makes opening books for quixo-arena. All logic lives in quixo_opening_generator.
#include <iostream>

#include "openings_command_line.hpp"

int main(int argc, char** argv) {
  return quixo::opening_generator::run_openings_command_line(argc, argv, std::cout, std::cerr);
}
