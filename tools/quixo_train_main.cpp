// quixo-train: the trainer of the learned evaluation. All logic lives in quixo_train.
#include <iostream>

#include "train_command_line.hpp"

int main(int argc, char** argv) {
  return quixo::train::run_train_command_line(argc, argv, std::cout, std::cerr);
}
