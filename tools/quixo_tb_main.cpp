// quixo-tb: the endgame table tool. All logic lives in quixo_tb_cli and quixo_tb_gen.
#include <iostream>

#include "tb_command_line.hpp"

int main(int argc, char** argv) {
  return quixo::tb::run_tb_command_line(argc, argv, std::cin, std::cout, std::cerr);
}
