// Which sanitizer the suites are built with, for GCC (which defines __SANITIZE_ADDRESS__ and
// __SANITIZE_THREAD__) and clang (which answers __has_feature instead).
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define QUIXO_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define QUIXO_ADDRESS_SANITIZER 1
#endif
#endif

#if defined(__SANITIZE_THREAD__)
#define QUIXO_THREAD_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define QUIXO_THREAD_SANITIZER 1
#endif
#endif
