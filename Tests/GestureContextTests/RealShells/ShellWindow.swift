#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Windows for a real shell's tests: the kernel suite's own Wayland client
/// (Tests/gesturemapTests/Kernel/gesture-client) with the app_id asked for,
/// built once per test run with its own build script. foot, the sway tests'
/// window, dies of SIGFPE as soon as KWin 5.27's virtual output is announced.
enum ShellWindow {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    struct BuildFailure: Error { let reason: String }

    /// The built client, or why it could not be built (a static let: built once, on first use).
    private static let built: Result<String, BuildFailure> = build()

    static func client() throws -> String {
        switch built {
        case .success(let path): return path
        case .failure(let failure): throw try cancelled(Comment(rawValue: failure.reason))
        }
    }

    private static func build() -> Result<String, BuildFailure> {
        guard which("cc") != nil, which("wayland-scanner") != nil,
              FileManager.default.fileExists(atPath: "/usr/share/wayland-protocols/stable/xdg-shell/xdg-shell.xml") else {
            return .failure(BuildFailure(reason: "cc, wayland-scanner or wayland-protocols is missing (apt-get install gcc libwayland-bin wayland-protocols libwayland-dev); scripts/test installs them"))
        }
        guard let directory = try? temporaryDirectory("shell-window") else { return .failure(BuildFailure(reason: "no temporary directory")) }
        let script = repository.appendingPathComponent("Tests/gesturemapTests/Kernel/gesture-client/build").path
        let result = run(script, [directory.path])
        let client = directory.appendingPathComponent("gesture-client").path
        guard result.status == 0, FileManager.default.isExecutableFile(atPath: client) else {
            return .failure(BuildFailure(reason: "Tests/gesturemapTests/Kernel/gesture-client/build failed (status \(result.status))"))
        }
        return .success(client)
    }

    /// A window whose app_id and title are `appID`, on the compositor `environment` names.
    static func open(appID: String, environment: [String: String]) throws -> Child {
        try Child(try client(), ["--app-id", appID], environment: environment)
    }
}
