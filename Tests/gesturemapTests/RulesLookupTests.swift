import Foundation
import Testing

/// `run` without `--rules`: the user's rules, then the machine's, then the built-in ones.
@Suite("Where run finds its rules")
struct RulesLookupTests {
    static func swipe() throws -> Data {
        Data(try Binary.run(["synth", "--seed", "3", "swipe left"]).stdout.utf8)
    }

    static func folder(_ rules: String?) throws -> URL {
        let dir = try Binary.temporaryDirectory()
        if let rules {
            try FileManager.default.createDirectory(at: dir.appendingPathComponent("gesturemap"), withIntermediateDirectories: true)
            try rules.write(to: dir.appendingPathComponent("gesturemap/rules.lua"), atomically: true, encoding: .utf8)
        }
        return dir
    }

    static func actions(_ result: Binary.Result) -> [String] {
        result.stdout.split(separator: "\n").compactMap { Binary.json(String($0))?["action"] as? String }
    }

    @Test("the user's rules come first, then /etc's, then the built-in rules; -v says which and where it looked")
    func order() throws {
        let user = try Self.folder(#"on("swipe left", function(g) emit("users_rules") end)"#)
        let system = try Self.folder(#"on("swipe left", function(g) emit("systems_rules") end)"#)
        let systemConfig = system.appendingPathComponent("gesturemap").path
        let both = try Binary.run(["run", "-v", "-"], stdin: Self.swipe(),
                                  environment: ["XDG_CONFIG_HOME": user.path, "GESTUREMAP_SYSTEM_CONFIG": systemConfig])
        #expect(Self.actions(both) == ["users_rules"])
        #expect(both.stderr.contains("gesturemap: no --rules: using \(user.path)/gesturemap/rules.lua (looked in \(user.path)/gesturemap/rules.lua, then \(systemConfig)/rules.lua)"), "\(both.stderr)")

        let empty = try Self.folder(nil)
        let machine = try Binary.run(["run", "-"], stdin: Self.swipe(),
                                     environment: ["XDG_CONFIG_HOME": empty.path, "GESTUREMAP_SYSTEM_CONFIG": systemConfig])
        #expect(Self.actions(machine) == ["systems_rules"])

        let neither = try Binary.run(["run", "-v", "-"], stdin: Self.swipe(),
                                     environment: ["XDG_CONFIG_HOME": empty.path, "GESTUREMAP_SYSTEM_CONFIG": empty.path + "/none"])
        #expect(Self.actions(neither) == ["next_page"])
        #expect(neither.stderr.contains("gesturemap: no --rules: none at \(empty.path)/gesturemap/rules.lua or \(empty.path)/none/rules.lua; using the built-in rules"), "\(neither.stderr)")

        // --rules wins over both.
        let given = try Binary.temporaryFile("given.lua", #"on("swipe left", function(g) emit("given") end)"#)
        let explicit = try Binary.run(["run", "--rules", given.path, "-"], stdin: Self.swipe(),
                                      environment: ["XDG_CONFIG_HOME": user.path, "GESTUREMAP_SYSTEM_CONFIG": systemConfig])
        #expect(Self.actions(explicit) == ["given"])
    }

    @Test("without XDG_CONFIG_HOME, ~/.config; a broken file found there fails as --rules would, naming it")
    func home() throws {
        let home = try Binary.temporaryDirectory()
        try FileManager.default.createDirectory(at: home.appendingPathComponent(".config/gesturemap"), withIntermediateDirectories: true)
        let path = home.appendingPathComponent(".config/gesturemap/rules.lua").path
        try #"on("swipe left", function(g) emit("from_home") end)"#.write(toFile: path, atomically: true, encoding: .utf8)
        let environment = ["XDG_CONFIG_HOME": "", "HOME": home.path, "GESTUREMAP_SYSTEM_CONFIG": home.path + "/none"]
        #expect(Self.actions(try Binary.run(["run", "-"], stdin: Self.swipe(), environment: environment)) == ["from_home"])
        try #"on("swipe sideways", function(g) end)"#.write(toFile: path, atomically: true, encoding: .utf8)
        let broken = try Binary.run(["run", "-"], stdin: Self.swipe(), environment: environment)
        #expect(broken.status == 1)
        #expect(broken.stderr.contains("\(path):1: cannot read gesture phrase \"swipe sideways\""), "\(broken.stderr)")
    }
}
