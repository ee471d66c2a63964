import Foundation
import Testing

/// What Touchégg 2.x runs for a configuration, from pugixml itself: a small
/// C++ program, built here with g++ against Debian's libpugixml, loads the
/// file with the calls Touchégg's loader makes (xml-config-loader.cpp) and
/// files each gesture under its key as config.cpp does, then looks up every
/// application and gesture the file names as gesture-controller.cpp does
/// (the window's class lower-cased, then "all"). One line per lookup:
/// `APP<TAB>TYPE<TAB>FINGERS<TAB>DIRECTION<TAB>WHAT`, WHAT being
/// `command<TAB>TEXT`, `keys<TAB>NAME+NAME`, `throws`, `none` or `other<TAB>TYPE`;
/// or `refused` alone when pugixml refuses the file.
enum ToucheggOracle {
    static let missing: String? = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/g++") else { return "needs g++ to build the pugixml oracle" }
        guard FileManager.default.fileExists(atPath: "/usr/include/pugixml.hpp") else { return "needs libpugixml-dev (scripts/setup installs it)" }
        return nil
    }()

    static let program = #"""
    #include <pugixml.hpp>
    #include <cctype>
    #include <cstdio>
    #include <iostream>
    #include <map>
    #include <regex>
    #include <set>
    #include <sstream>
    #include <string>
    #include <unordered_map>
    #include <vector>

    // The names Touchégg's enums give, as numbers (gesture-type.h, gesture-direction.h).
    static int typeNumber(const std::string &s) {
      if (s == "SWIPE" || s == "DRAG") return 1;
      if (s == "PINCH") return 2;
      if (s == "TAP") return 3;
      return 0;
    }
    static int directionNumber(const std::string &s) {
      const char *names[] = {"", "UP", "DOWN", "LEFT", "RIGHT", "IN", "OUT"};
      for (int i = 1; i < 7; i++) if (s == names[i]) return i;
      return 0;
    }
    static std::vector<std::string> pieces(const std::string &s, char by) {
      std::stringstream in(s);
      std::string piece;
      std::vector<std::string> out;
      while (std::getline(in, piece, by)) out.push_back(piece);
      return out;
    }
    static std::string trimmed(const std::string &s) {
      return std::regex_replace(std::regex_replace(s, std::regex("\\s+$"), ""), std::regex("^\\s+"), "");
    }
    static std::string lower(std::string s) {
      for (auto &c : s) c = std::tolower(static_cast<unsigned char>(c));
      return s;
    }
    struct Entry { std::string type; std::unordered_map<std::string, std::string> settings; };

    int main(int argc, char **argv) {
      pugi::xml_document doc;
      if (!doc.load_file(argv[1])) { std::cout << "refused\n"; return 0; }
      pugi::xml_node root = doc.document_element();
      std::map<std::string, std::string> global;
      global["animation_delay"] = "150";
      for (pugi::xml_node p : root.child("settings").children("property")) global[p.attribute("name").value()] = p.child_value();
      std::map<std::string, Entry> config;
      for (pugi::xml_node app : root.children("application")) {
        std::vector<std::string> names = pieces(app.attribute("name").value(), ',');
        for (pugi::xml_node gesture : app.children("gesture")) {
          pugi::xml_node action = gesture.child("action");
          Entry entry;
          entry.type = action.attribute("type").value();
          for (pugi::xml_node setting : action.children()) entry.settings[setting.name()] = setting.child_value();
          for (const std::string &name : names) {
            std::string key = lower(trimmed(name)) + "_" + std::to_string(typeNumber(gesture.attribute("type").value())) + "_" +
                              gesture.attribute("fingers").value() + "_" + std::to_string(directionNumber(gesture.attribute("direction").value()));
            config[key] = entry;
          }
        }
      }
      // Every application a key names, read from the key's end, and one no key names.
      std::set<std::string> apps = {"zz-no-such-app"};
      for (auto &pair : config) {
        std::string key = pair.first;
        for (int cut = 0; cut < 3; cut++) { size_t at = key.rfind('_'); if (at == std::string::npos) break; key = key.substr(0, at); }
        if (key != "all") apps.insert(key);
      }
      const char *types[] = {"", "swipe", "pinch", "tap"};
      const char *directions[] = {"", "up", "down", "left", "right", "in", "out"};
      for (const std::string &app : apps) {
        for (int type = 1; type <= 3; type++) {
          for (int fingers = 2; fingers <= 5; fingers++) {
            for (int direction = 0; direction <= 6; direction++) {
              // What a gesture is looked up with: a swipe's four directions, a pinch's two, a tap's none.
              if ((type == 1 && (direction < 1 || direction > 4)) || (type == 2 && direction < 5) || (type == 3 && direction != 0)) continue;
              std::string tail = "_" + std::to_string(type) + "_" + std::to_string(fingers) + "_" + std::to_string(direction);
              auto found = config.find(lower(app) + tail);
              if (found == config.end()) found = config.find(lower("All") + tail);
              if (found == config.end()) continue;
              Entry &e = found->second;
              std::cout << app << "\t" << types[type] << "\t" << fingers << "\t" << directions[direction] << "\t";
              try {
                std::stoull(global["animation_delay"]);
                if (e.type == "RUN_COMMAND" || e.type == "SEND_KEYS") {
                  if (e.settings.count("times")) std::stoi(e.settings["times"]);
                }
              } catch (...) { std::cout << "throws\n"; continue; }
              if (e.type == "RUN_COMMAND") {
                std::cout << "command\t" << e.settings["command"] << "\n";
              } else if (e.type == "SEND_KEYS") {
                std::string joined;
                for (const char *part : {"modifiers", "keys"}) {
                  if (!e.settings.count(part)) continue;
                  for (const std::string &name : pieces(e.settings[part], '+')) joined += (joined.empty() ? "" : "+") + name;
                }
                std::cout << "keys\t" << joined << "\n";
              } else if (e.type.empty()) {
                std::cout << "none\n";
              } else {
                std::cout << "other\t" << e.type << "\n";
              }
            }
          }
        }
      }
      return 0;
    }
    """#

    /// The oracle, built once.
    static let binary: Result<URL, OracleError> = {
        do {
            let dir = try Binary.temporaryDirectory()
            let source = dir.appendingPathComponent("oracle.cpp")
            try program.write(to: source, atomically: true, encoding: .utf8)
            let output = dir.appendingPathComponent("oracle")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/g++")
            process.arguments = ["-std=c++17", "-o", output.path, source.path, "-lpugixml"]
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { return .failure(OracleError(message: "g++: \(text)")) }
            return .success(output)
        } catch {
            return .failure(OracleError(message: "\(error)"))
        }
    }()

    struct OracleError: Error { var message: String }

    struct Lookup {
        var app: String
        var phrase: String
        var what: String
        var detail: String
    }

    /// Touchégg's lookups for the file, or nil when it refuses the file.
    static func lookups(_ config: URL) throws -> [Lookup]? {
        let oracle = try binary.get()
        let process = Process()
        process.executableURL = oracle
        process.arguments = [config.path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        if text == "refused\n" { return nil }
        return text.split(separator: "\n").map { line in
            let cells = line.split(separator: "\t", maxSplits: 5, omittingEmptySubsequences: false).map(String.init)
            let phrase = "\(cells[2])-finger \(cells[1])" + (cells[3].isEmpty ? "" : " " + cells[3])
            return Lookup(app: cells[0], phrase: phrase, what: cells[4], detail: cells.count > 5 ? cells[5] : "")
        }
    }
}
