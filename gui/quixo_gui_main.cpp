// quixo-gui: the browser board (gui_command_line.hpp has all of it).
#include <iostream>

#include "gui_command_line.hpp"

int main(int argc, char** argv) {
  return quixo::gui::run_gui_command_line(argc, argv, std::cout, std::cerr);
}
