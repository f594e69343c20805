// quixo.engine's and quixo.pgn's part of the extension module (client_bindings.cpp).
#pragma once

#include <pybind11/pybind11.h>

#include <stdexcept>

namespace quixo::python {

// An engine that could not start, refused an option or did not answer: quixo.engine.EngineError.
class EngineFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

void bind_client(pybind11::module_& module);

}  // namespace quixo::python
