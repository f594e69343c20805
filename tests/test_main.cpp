// The one Boost.Test module; every *_tests.cpp file adds a suite to it.
#define BOOST_TEST_MODULE quixo
#include <boost/test/unit_test.hpp>
