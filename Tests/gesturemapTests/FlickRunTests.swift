import Foundation
import Testing

/// A flick beside swipe rules, through the binary: a fusuma config that follows
/// a 3-finger swipe up phase by phase (begin, update), next to one-shot swipes
/// left and right and a 4-finger one, imported; a quick 3-finger swipe up.
@Suite("Flicks, through the binary")
struct FlickRunTests {
    static let fusuma = """
        swipe:
          3:
            left:
              command: 'xdotool key alt+Right'
            right:
              command: 'xdotool key alt+Left'
            up:
              begin:
                command: 'echo begin'
              update:
                command: 'echo update'
          4:
            up:
              begin:
                command: 'echo four'
        """

    @Test("gesturemap synth's 3-finger swipe up (130 ms, 34 mm) begins and updates the imported 3-finger pan, as fusuma does")
    func importedPanFollowsAFlick() throws {
        let config = try Binary.temporaryFile("config.yml", Self.fusuma)
        let imported = try Binary.run(["import", config.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let rules = try Binary.temporaryFile("flick.lua", imported.stdout)
        let flick = try Binary.run(["synth", "--seed", "1", "3-finger swipe up"])
        let run = try Binary.run(["run", "--dry-run", "--rules", rules.path], stdin: Data(flick.stdout.utf8))
        #expect(run.status == 0, "\(run.stderr)")
        let commands = run.lines.compactMap(Binary.json).compactMap { ($0["argv"] as? [String])?.last }
        #expect(commands == ["echo begin", "echo update"], "\(run.stdout)")
    }
}
