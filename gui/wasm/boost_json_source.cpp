// Boost.JSON's compiled part for the WebAssembly build, which cannot link Debian's native
// libboost_json: the library's own single-file source, compiled once here.
#include <boost/json/src.hpp>
