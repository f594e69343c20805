// Gathering the bits of a mask into the low bits and scattering them back: BMI2's pext and pdep
// where the build targets a CPU that has them (-march=native), a portable loop elsewhere with the
// same results. Inline, because the learned evaluation gathers every line at every leaf.
#pragma once

#include "types.hpp"

#if defined(__BMI2__)
#include <immintrin.h>
#endif

namespace quixo {

// The bits of `value` selected by `mask`, packed into the low bits in the mask's order.
inline Bitboard extract_bits(Bitboard value, Bitboard mask) {
#if defined(__BMI2__)
  return _pext_u32(value, mask);
#else
  Bitboard result = 0;
  for (Bitboard out = 1; mask; mask &= mask - 1, out <<= 1)
    if (value & mask & -mask) result |= out;
  return result;
#endif
}

// The inverse of extract_bits: the low bits of `value` placed on the bits of `mask`.
inline Bitboard deposit_bits(Bitboard value, Bitboard mask) {
#if defined(__BMI2__)
  return _pdep_u32(value, mask);
#else
  Bitboard result = 0;
  for (Bitboard in = 1; mask; mask &= mask - 1, in <<= 1)
    if (value & in) result |= mask & -mask;
  return result;
#endif
}

}  // namespace quixo
