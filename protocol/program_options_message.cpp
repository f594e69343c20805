#include "program_options_message.hpp"

#include <boost/program_options/parsers.hpp>
#include <map>
#include <ostream>
#include <sstream>

#include "core/text_helpers.hpp"

namespace quixo {

namespace {

namespace po = boost::program_options;

// A copy of the error, to read its template and substitutions (protected members in Boost).
class SafeMessage : public po::error_with_option_name {
 public:
  explicit SafeMessage(const po::error_with_option_name& original)
      : po::error_with_option_name(original) {}

  bool has_user_percent() const {
    for (const auto& substitution : m_substitutions)
      if (substitution.second.find('%') != std::string::npos) return true;
    return false;
  }

  // What Boost's substitute_placeholders makes, with every placeholder replaced once.
  std::string text() const {
    std::map<std::string, std::string> values = m_substitutions;
    values["canonical_option"] = get_canonical_option_name();
    values["prefix"] = get_canonical_option_prefix();
    std::string text = m_error_template;
    // A missing value: Boost's fixed default text ("argument ('%value%')" -> "argument").
    for (const auto& [name, replacement] : m_substitution_defaults) {
      if (!values[name].empty()) continue;
      const auto& [from, to] = replacement;
      for (std::size_t at = text.find(from); at != std::string::npos;
           at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    }
    // Each %name% by its value; what is put in is not searched again.
    std::string out;
    std::size_t i = 0;
    while (i < text.size()) {
      if (text[i] == '%') {
        const std::size_t close = text.find('%', i + 1);
        if (close != std::string::npos) {
          const auto value = values.find(text.substr(i + 1, close - i - 1));
          if (value != values.end()) {
            out += value->second;
            i = close + 1;
            continue;
          }
        }
      }
      out += text[i++];
    }
    return out;
  }
};

}  // namespace

std::string program_options_message(const po::error& error) {
  if (const auto* named = dynamic_cast<const po::error_with_option_name*>(&error)) {
    const SafeMessage copy(*named);
    // Without a '%' in the user's text Boost's own message is safe (and keeps what subclasses
    // add, such as an ambiguous option's alternatives).
    if (copy.has_user_percent()) return copy.text();
  }
  return error.what();
}

bool store_config_file(const std::string& path, const po::options_description& options,
                       po::variables_map& vm, std::string_view program, std::ostream& err) {
  // A directory read as an empty file would drop the options the user meant; a device or FIFO
  // may never end: only a regular file of a bounded size is read.
  text_helpers::FileText file = text_helpers::read_regular_file(path, kConfigFileMaxMebibytes);
  if (!file.error.empty()) {
    err << program << ": config file \"" << path << "\" " << file.error << "\n";
    return false;
  }
  std::istringstream stream(file.text);
  try {
    po::store(po::parse_config_file(stream, options), vm);
  } catch (const po::error& error) {
    err << program << ": config file \"" << path << "\": " << program_options_message(error)
        << "\n";
    return false;
  }
  return true;
}

}  // namespace quixo
