#include "engine_base.hpp"

#include "four_player_variant.hpp"
#include "search.hpp"
#include "two_player_variant.hpp"

namespace quixo {

template <class Variant>
EngineBase<Variant>::EngineBase(TableAllocation allocation)
    : manager_(std::make_unique<SearchManager<Variant>>(EngineOptions{}, allocation)) {}

template <class Variant>
EngineBase<Variant>::~EngineBase() = default;

template <class Variant>
void EngineBase<Variant>::set_options(const EngineOptions& options) {
  manager_->set_options(options);
}

template <class Variant>
const EngineOptions& EngineBase<Variant>::options() const {
  return manager_->options();
}

template <class Variant>
std::size_t EngineBase<Variant>::table_megabytes() const {
  return manager_->table_megabytes();
}

template <class Variant>
void EngineBase<Variant>::new_game() {
  manager_->new_game();
}

template <class Variant>
void EngineBase<Variant>::stop() {
  manager_->stop();
}

template <class Variant>
void EngineBase<Variant>::ponderhit() {
  manager_->ponderhit();
}

template <class Variant>
void EngineBase<Variant>::wait() {
  manager_->wait();
}

template <class Variant>
bool EngineBase<Variant>::searching() const {
  return manager_->searching();
}

template class EngineBase<TwoPlayerVariant>;
template class EngineBase<FourPlayerVariant>;

}  // namespace quixo
