#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// `--share` outside a kernel: what it says about inputs it cannot share.
@Suite("run --share on files and pipes")
struct ShareCommandTests {
    @Test("a file or pipe is read as ever, and the run says once that nothing is shared")
    func nothingToShare() throws {
        let result = try Binary.synthThenRun(["tap"], seed: 1, run: ["--share", "--rules", "examples/pager.lua"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "\n").filter { !$0.isEmpty }
                == ["gesturemap: --share shares live devices (/dev/input/event*), and no input here is one: nothing is shared"])
    }

    @Test("config{ share = true } in the rules says the same, naming the config key, not a flag the user never gave")
    func fromConfig() throws {
        let rules = try Binary.temporaryFile("share.lua", "config{ share = true }\non(\"tap\", function(g) emit(\"tapped\") end)\n")
        let result = try Binary.synthThenRun(["tap"], seed: 1, run: ["--rules", rules.path])
        #expect(result.status == 0)
        #expect(result.stdout.contains("\"action\":\"tapped\""))
        #expect(result.stderr.contains("gesturemap: config{ share = true } shares live devices (/dev/input/event*), and no input here is one: nothing is shared"))
    }

    @Test("examples/mouse.lua on a recording: its config{ share_mice = true } says that it shares live mice and nothing here is one, and the strokes still run")
    func miceFromConfig() throws {
        let result = try Binary.synthThenRun(["right-drag left"], seed: 1, run: ["-n", "--rules", "examples/mouse.lua"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("\"key\":\"KEY_LEFTALT\""))
        #expect(result.stderr.contains("gesturemap: config{ share_mice = true } shares live mice (/dev/input/event*), and no input here is one: nothing is shared"))
        let flag = try Binary.synthThenRun(["right-drag left"], seed: 1, run: ["--share-mouse", "-n", "--rules", "examples/mouse.lua"])
        #expect(flag.stderr.contains("gesturemap: --share-mouse shares live mice (/dev/input/event*), and no input here is one: nothing is shared"))
    }
}

/// `--share` where its clones cannot be made: no uinput, or none this user may
/// write. Said at once, before the run opens or waits for any device, exit 69.
@Suite("run --share without uinput", .serialized)
struct ShareWithoutUinputTests {
    static let root = Binary.packageRoot.path
    static let readBeside = "or run without --share (gesturemap then reads beside the desktop, which acts on the same fingers)"
    static let load = "load the uinput module (sudo modprobe uinput && echo uinput | sudo tee /etc/modules-load.d/uinput.conf), give yourself access with the udev rule examples/udev/70-gesturemap.rules"

    /// A device folder whose one node this user may not read, and a uinput path that does not exist.
    static func machine() throws -> (input: String, uinput: String) {
        let folder = try Binary.temporaryDirectory()
        chmod(folder.path, 0o755)
        let input = folder.appendingPathComponent("input").path
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: false)
        chmod(input, 0o755)
        #expect(FileManager.default.createFile(atPath: input + "/event0", contents: nil, attributes: [.posixPermissions: 0o000]))
        return (input, folder.appendingPathComponent("uinput").path)
    }

    @Test("no uinput and no device yet, as a service starts (standard input /dev/null): it says --share needs uinput, at once, and exits 69 (it waited for a device)")
    func noUinputNoDevice() throws {
        let folder = try Binary.temporaryDirectory()
        let missingInput = folder.appendingPathComponent("input").path, missingUinput = folder.appendingPathComponent("uinput").path
        let rules = try Binary.temporaryFile("share.lua", "config{ share = true }\non(\"tap\", function(g) emit(\"tapped\") end)\n")
        let result = try Binary.run(["run", "--rules", rules.path], environment: ["GESTUREMAP_INPUT_DIR": missingInput, "GESTUREMAP_UINPUT": missingUinput], killAfter: 20)
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.errorLines == ["gesturemap: --share needs \(missingUinput), which does not exist, to give the desktop its copy of each touch device; \(Self.load), " + Self.readBeside], "\(result.stderr)")
    }

    @Test("as a user who may read neither: it names --share, the uinput it needs, key() that needs it too, and the device it cannot read, with the udev rule as the fix; exit 69")
    func unprivilegedNoUinput() throws {
        let (input, uinput) = try Self.machine()
        let rules = try Binary.temporaryFile("share.lua", "config{ share = true }\non(\"3-finger swipe left\", function(g) key(\"alt+Right\") end)\n")
        let result = try Binary.run(["run", "--rules", rules.path], environment: ["GESTUREMAP_INPUT_DIR": input, "GESTUREMAP_UINPUT": uinput],
                                    killAfter: 20, unprivileged: true)
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.errorLines == [
            "gesturemap: --share needs \(uinput), which does not exist, to give the desktop its copy of each touch device; \(Self.load), "
                + Self.readBeside + "; \(rules.path):2 calls key(), which needs \(uinput) too",
            "gesturemap: --share reads each device it shares, and this user (nobody) may not read \(input)/event0: the udev rule 70-gesturemap.rules gives the touch devices, and \(uinput), to the user logged in at the seat; a kiosk with no one at the seat runs gesturemap as the gesturemap user (User=gesturemap in its system service), which the rule gives both",
        ], "\(result.stderr)")
    }

    @Test("uinput there but not writable by this user, --share on the command line: write access is named, with the rule to copy from where this build has it; exit 69")
    func unprivilegedUinputDenied() throws {
        let (input, uinput) = try Self.machine()
        #expect(FileManager.default.createFile(atPath: uinput, contents: nil, attributes: [.posixPermissions: 0o600]))
        let result = try Binary.run(["run", "--share", "--rules", "examples/pager.lua"], environment: ["GESTUREMAP_INPUT_DIR": input, "GESTUREMAP_UINPUT": uinput],
                                    killAfter: 20, unprivileged: true)
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.errorLines.first == "gesturemap: --share needs write access to \(uinput) to give the desktop its copy of each touch device; the udev rule 70-gesturemap.rules gives it to the user logged in at the seat: install it (the package does; from a build, sudo cp \(Self.root)/examples/udev/70-gesturemap.rules /etc/udev/rules.d/ && sudo udevadm trigger) and log in again at the seat; a kiosk that runs gesturemap with no one at the seat runs it as the gesturemap user instead, which the rule gives uinput to (User=gesturemap in its system service; the package creates that user, and the rule's first lines say how from a build); " + Self.readBeside, "\(result.stderr)")
        #expect(result.errorLines.dropFirst().first?.hasPrefix("gesturemap: --share reads each device it shares, and this user (nobody) may not read \(input)/event0: ") == true, "\(result.stderr)")
        #expect(result.errorLines.count == 2, "\(result.stderr)")
    }
}
