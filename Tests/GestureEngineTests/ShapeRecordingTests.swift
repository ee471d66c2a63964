import Foundation
import GestureEngine
import Testing

// Every real recording of ../shared/data/real/evemu-devices and
// chromeos-autotest-firmware_TouchMTB with a shape rule bound: the Wacom
// tablets' one-finger circles are circles; nothing else is a shape, and every
// other gesture comes as it does with no shape rule.

/// The recordings, each as the files to concatenate (an evemu description, then its events).
private let recordings: [[String]] = {
    var out: [[String]] = []
    let base = realDataDirectory + "/evemu-devices/"
    for folder in ["tablets", "touchpads", "touchscreens"] {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: base + folder)) ?? []).sorted()
        let descriptions = files.filter { $0.hasSuffix(".desc") }
        for file in files where file.hasSuffix(".events") {
            guard let description = descriptions.first(where: { file.hasPrefix(String($0.dropLast(5))) }) else { continue }
            out.append([base + folder + "/" + description, base + folder + "/" + file])
        }
    }
    let touchMTB = ((try? FileManager.default.contentsOfDirectory(atPath: realDataDirectory + "/chromeos-autotest-firmware_TouchMTB/data")) ?? []).sorted()
    return out + touchMTB.map { [touchMTBPath($0)] }
}()

private let everyOtherKind = evdevRules(allSwipes + tapsAndHolds + pinchesAndRotations + ["pan", "2-finger pan"])
private let shapeRule = """
on("shape", function(g) emit("gesture", { kind = "shape " .. g.shape, fingers = 1, taps = math.floor(g.score * 100) }) end)

"""

@Suite("Shapes in real recordings", .enabled(if: evdevRecordingsPresent, "needs ../shared/data/real beside the package"))
struct ShapeRecordingTests {
    @Test("the recordings are there")
    func found() {
        #expect(recordings.count >= 70)
    }

    @Test("with only a shape rule bound, the three Wacom one-finger circles are circles and nothing else is a shape")
    func onlyCircles() throws {
        var shapes: [String] = []
        for files in recordings {
            let run = try runRecording(files, rules: shapeRule)
            #expect(run.status == .ok)
            for g in run.gestures { shapes.append("\(files.last?.split(separator: "/").last ?? ""): \(g.kind) \(g.taps)") }
        }
        #expect(shapes.count == 3, "\(shapes)")
        #expect(shapes.allSatisfy { $0.contains("single-center-circle.events: shape circle") }, "\(shapes)")
    }

    @Test("with every other kind bound, a shape rule beside them changes none of their gestures")
    func othersUnchanged() throws {
        for files in recordings {
            let without = try runRecording(files, rules: everyOtherKind)
            let with = try runRecording(files, rules: shapeRule + everyOtherKind)
            let others = with.gestures.filter { !$0.kind.hasPrefix("shape") }
            #expect(others == without.gestures, "\(files.last ?? "")")
            #expect(with.gestures.count - others.count <= (files.last?.contains("single-center-circle") == true ? 1 : 0), "\(files.last ?? ""): \(with.gestures)")
        }
    }
}
