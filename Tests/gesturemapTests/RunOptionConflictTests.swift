import Foundation
import Testing

/// Options of `run` that ask for opposite things: a usage error that says
/// which to pick and why, before anything is opened.
@Suite("run's options that exclude each other")
struct RunOptionConflictTests {
    @Test("--share with --grab: exit 64, and the message says what each does")
    func shareAndGrab() throws {
        // The first build accepted both and waited for a device: killAfter ends that.
        let result = try Binary.run(["run", "--share", "--grab"], killAfter: 20)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr == """
            gesturemap run: --share and --grab ask for opposite things: --grab keeps the devices from the desktop, --share gives the desktop every touch but the gestures the rules claim; give one of them
            see: gesturemap run --help

            """, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
