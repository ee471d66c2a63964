import Foundation
import GestureCore
import GestureInput
import Testing

// Parser-level facts about real Chromebook touchpad recordings, as ChromeOS
// autotest's firmware_TouchMTB unit tests state them (PEER_SCENARIOS.md §C,
// chromeos-autotest-firmware_TouchMTB/SOURCE.md), checked on the frames our
// decoders produce. The second suite at the end feeds the slot assembler
// hand-written evemu text and needs no data.
//
// How the peer's counts map onto our frames. The peer counts evdev packets (one
// per SYN_REPORT):
// - "points" of a slot = the packets during which its contact is down, from the
//   packet that lands it to the last one before it lifts;
// - "packets" of a tracking id = those plus the packet in which it lifts (-1),
//   i.e. points + 1.
// In frames: a contact's "points" are the frames where its phase is .began,
// .moved or .stationary, and its "packets" add the frame where it is .ended. That
// holds frame for frame on one_finger_with_slot_0.dat (13 packets, each moving the
// finger or lifting it: 12 + 1) and x_y_multiple_slots.dat. But the decoder emits
// a frame only for a packet that changes some contact (a position, a landing or a
// lift); packets that carry only pressure or touch size give no frame. The two
// two-finger files have 48 and 35 such packets, so there the counts are taken per
// packet: the decoder is fed one line at a time, its `eventCount` (SYN_REPORTs so
// far) marks each packet's end, and every contact down at that moment counts one
// point (a contact not in that packet's frame, or with no frame at all, is
// stationary). Contacts get the decoder's own ids (1, 2, ...), not the tracking
// ids, so counts are per contact id in order of first appearance.

/// `<package root>/../shared/data/real/chromeos-autotest-firmware_TouchMTB/data`, from this file's path.
private let touchMTBDataDirectory: String = {
    URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // GestureInputTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .deletingLastPathComponent()
        .appendingPathComponent("shared/data/real/chromeos-autotest-firmware_TouchMTB/data")
        .path
}()

private let touchMTBDataPresent = FileManager.default.fileExists(atPath: touchMTBDataDirectory)

/// What decoding one whole input gave.
private struct MTBDecoded {
    var frames: [TouchFrame]
    var diagnostics: [Diagnostic]
    var errorCount: Int
    var format: InputFormat?
    var eventCount: Int
}

/// Decodes `bytes` through `AutoDecoder` in chunks of `chunk` bytes, then finishes.
private func mtbDecode(_ bytes: [UInt8], source: String, resolution: (x: Double, y: Double)? = nil,
                       transform: Transform = .identity, chunk: Int = 4096) -> MTBDecoded {
    var decoder = AutoDecoder(source: source, resolution: resolution, transform: transform)
    let frames = drive(&decoder, bytes, chunk: chunk)
    return MTBDecoded(frames: frames, diagnostics: decoder.diagnostics, errorCount: decoder.errorCount,
                      format: decoder.format, eventCount: decoder.eventCount)
}

/// Decodes one of the recordings by file name.
private func mtbDecodeFile(_ name: String, resolution: (x: Double, y: Double)? = nil) throws -> MTBDecoded {
    let path = touchMTBDataDirectory + "/" + name
    let data = try #require(FileManager.default.contents(atPath: path), "cannot read \(path)")
    return mtbDecode(Array(data), source: name, resolution: resolution)
}

/// Contact ids in the order they first appear.
private func mtbContactIDs(_ frames: [TouchFrame]) -> [Int] {
    var ids: [Int] = []
    for frame in frames {
        for touch in frame.touches where !ids.contains(touch.id) { ids.append(touch.id) }
    }
    return ids
}

/// The peer's "points": frames in which contact `id` is down.
private func mtbPoints(_ frames: [TouchFrame], id: Int) -> [Touch] {
    frames.compactMap { frame in frame.touches.first { $0.id == id && $0.phase.isActive } }
}

/// The peer's "packets": frames in which contact `id` appears at all (down, or lifting).
private func mtbPackets(_ frames: [TouchFrame], id: Int) -> [Touch] {
    frames.compactMap { frame in frame.touches.first { $0.id == id } }
}

/// Per-packet counts for one recording, by contact id.
private struct MTBPacketCounts {
    var contacts: [Int] = []
    var points: [Int: Int] = [:]
    var packets: [Int: Int] = [:]
    var packetCount = 0
    var frameCount = 0
}

/// Feeds a recording to `AutoDecoder` one line at a time and counts, at each
/// SYN_REPORT, which contacts are down (points) or lift in it (packets).
private func mtbCountPackets(_ name: String) throws -> MTBPacketCounts {
    let text = try String(contentsOfFile: touchMTBDataDirectory + "/" + name, encoding: .utf8)
    var decoder = AutoDecoder(source: name)
    var counts = MTBPacketCounts()
    var down: [Int] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        var lifted: [Int] = []
        let before = decoder.eventCount
        Array((line + "\n").utf8).withUnsafeBytes { bytes in
            decoder.feed(bytes) { frame in
                counts.frameCount += 1
                for touch in frame.touches {
                    if !counts.contacts.contains(touch.id) { counts.contacts.append(touch.id) }
                    if touch.phase.isActive {
                        if !down.contains(touch.id) { down.append(touch.id) }
                    } else {
                        down.removeAll { $0 == touch.id }
                        lifted.append(touch.id)
                    }
                }
            }
        }
        guard decoder.eventCount > before else { continue }
        #expect(decoder.eventCount == before + 1)
        counts.packetCount += 1
        for id in down {
            counts.points[id, default: 0] += 1
            counts.packets[id, default: 0] += 1
        }
        for id in lifted { counts.packets[id, default: 0] += 1 }
    }
    var trailing = 0
    decoder.finish { _ in trailing += 1 }
    #expect(trailing == 0, "contacts still down at the end of \(name)")
    #expect(decoder.diagnostics.isEmpty, "\(decoder.diagnostics)")
    return counts
}

/// Packets (SYN_REPORTs) in an evtest file that carry a position or a tracking id.
private func mtbPacketsChangingContacts(_ name: String) throws -> Int {
    let text = try String(contentsOfFile: touchMTBDataDirectory + "/" + name, encoding: .utf8)
    var changing = false
    var count = 0
    for line in text.split(separator: "\n") where line.hasPrefix("Event:") {
        if line.contains("SYN_REPORT") {
            if changing { count += 1 }
            changing = false
        } else if line.contains("(ABS_MT_POSITION_X)") || line.contains("(ABS_MT_POSITION_Y)") || line.contains("(ABS_MT_TRACKING_ID)") {
            changing = true
        }
    }
    return count
}

/// Device units from millimetres, for an axis that starts at `minimum`.
private func mtbUnits(_ mm: Double, resolution: Double, minimum: Double = 0) -> Int {
    Int((mm * resolution + minimum).rounded())
}

@Suite("ChromeOS TouchMTB parser facts", .enabled(if: touchMTBDataPresent, "needs ../shared/data/real/chromeos-autotest-firmware_TouchMTB beside the package"))
struct TouchMTBParserFactsTests {
    // MARK: Points per slot, packets per tracking id

    @Test("one_finger_with_slot_0.dat: 12 points for slot 0 (13 packets: 12 down + the lift)")
    func oneFingerWithSlot0() throws {
        let run = try mtbDecodeFile("one_finger_with_slot_0.dat")
        #expect(run.format == .evtest)
        #expect(run.errorCount == 0)
        #expect(run.diagnostics.isEmpty, "\(run.diagnostics)")
        // The mapping check, on frames: 13 SYN_REPORTs in the file, each moving or
        // lifting the finger, make 13 frames: 12 with it down, 1 with it ended.
        #expect(run.eventCount == 13)
        #expect(run.frames.count == 13)
        let ids = mtbContactIDs(run.frames)
        #expect(ids == [1])
        let points = mtbPoints(run.frames, id: 1)
        #expect(points.count == 12)
        #expect(mtbPackets(run.frames, id: 1).count == 13)
        #expect(points.first?.phase == .began)
        #expect(mtbPackets(run.frames, id: 1).last?.phase == .ended)
        // ... and per packet, which agrees.
        let counts = try mtbCountPackets("one_finger_with_slot_0.dat")
        #expect(counts.packetCount == 13)
        #expect(counts.contacts == [1])
        #expect(counts.points == [1: 12])
        #expect(counts.packets == [1: 13])
        // First and last positions in device units (20 units/mm from the header, min 0).
        let first = try #require(points.first).position
        let last = try #require(points.last).position
        #expect(mtbUnits(first.x, resolution: 20) == 1301 && mtbUnits(first.y, resolution: 20) == 493, "\(first)")
        #expect(mtbUnits(last.x, resolution: 20) == 1087 && mtbUnits(last.y, resolution: 20) == 773, "\(last)")
    }

    @Test("one_finger_without_slot_0.dat: 9 points; a stream without ABS_MT_SLOT is slot 0")
    func oneFingerWithoutSlot0() throws {
        let run = try mtbDecodeFile("one_finger_without_slot_0.dat")
        #expect(run.errorCount == 0)
        #expect(run.diagnostics.isEmpty, "\(run.diagnostics)")
        let counts = try mtbCountPackets("one_finger_without_slot_0.dat")
        #expect(counts.contacts == [1])
        #expect(counts.points == [1: 9])
        #expect(counts.packets == [1: 10])
        // Here too every packet is a frame.
        #expect(mtbPoints(run.frames, id: 1).count == 9)
        #expect(mtbPackets(run.frames, id: 1).count == 10)
        // The contact lands in the very first packet, at its first reported position,
        // although no ABS_MT_SLOT came before its tracking id.
        let first = try #require(run.frames.first)
        #expect(first.touches.count == 1)
        #expect(first.touches.first?.phase == .began)
        let p = try #require(first.touches.first).position
        #expect(mtbUnits(p.x, resolution: 20) == 1268 && mtbUnits(p.y, resolution: 20) == 508, "\(p)")
    }

    @Test("two_finger_with_slot_0.dat: 121 + 59 points, 122 + 60 packets")
    func twoFingerWithSlot0() throws {
        let name = "two_finger_with_slot_0.dat"
        let counts = try mtbCountPackets(name)
        #expect(counts.packetCount == 122)
        try #require(counts.contacts.count == 2, "contacts: \(counts.contacts)")
        let (a, b) = (counts.contacts[0], counts.contacts[1])
        #expect(counts.points[a] == 121)
        #expect(counts.points[b] == 59)
        #expect(counts.packets[a] == 122)
        #expect(counts.packets[b] == 60)
        // One frame per packet that moves, lands or lifts a contact (74 of the 122).
        #expect(counts.frameCount == (try mtbPacketsChangingContacts(name)))
    }

    @Test("two_finger_without_slot_0.dat: 104 + 10 points, 105 + 11 packets")
    func twoFingerWithoutSlot0() throws {
        let name = "two_finger_without_slot_0.dat"
        let counts = try mtbCountPackets(name)
        #expect(counts.packetCount == 105)
        try #require(counts.contacts.count == 2, "contacts: \(counts.contacts)")
        let (a, b) = (counts.contacts[0], counts.contacts[1])
        #expect(counts.points[a] == 104)
        #expect(counts.points[b] == 10)
        #expect(counts.packets[a] == 105)
        #expect(counts.packets[b] == 11)
        #expect(counts.frameCount == (try mtbPacketsChangingContacts(name)))
    }

    // MARK: Exact positions

    /// SOURCE.md's sequences are one value per packet while both fingers are down
    /// (the peer extracts "packets with all specified slots"), not one per change:
    /// slot 1's X ends 538, 538 and its Y starts 894, 894 and ends 1013, 1013 because
    /// that axis was not re-sent in the packet. So consecutive duplicates do appear,
    /// and the sequences are the positions in the frames where both contacts are down.
    @Test("x_y_multiple_slots.dat: the exact X and Y sequences of both fingers, in device units")
    func xyMultipleSlots() throws {
        let run = try mtbDecodeFile("x_y_multiple_slots.dat")
        #expect(run.errorCount == 0)
        #expect(run.diagnostics.isEmpty, "\(run.diagnostics)")
        let ids = mtbContactIDs(run.frames)
        try #require(ids.count == 2, "contacts: \(ids)")
        // The header says 0..2039 x 0..1359 at 20 units/mm.
        let both = run.frames.filter { f in ids.allSatisfy { id in f.touches.contains { $0.id == id && $0.phase.isActive } } }
        func sequence(_ id: Int) -> (x: [Int], y: [Int]) {
            let touches = both.compactMap { f in f.touches.first { $0.id == id } }
            return (touches.map { mtbUnits($0.position.x, resolution: 20) }, touches.map { mtbUnits($0.position.y, resolution: 20) })
        }
        let slot0 = sequence(ids[0])
        let slot1 = sequence(ids[1])
        #expect(slot0.x == [1066, 1068, 1082, 1183, 1214, 1285, 1322, 1351, 1377, 1391])
        #expect(slot0.y == [561, 559, 542, 426, 405, 358, 328, 313, 304, 297])
        #expect(slot1.x == [770, 769, 768, 758, 697, 620, 585, 565, 538, 538])
        #expect(slot1.y == [894, 894, 895, 898, 927, 968, 996, 1003, 1013, 1013])
        // Slot 1 lifts first, then slot 0: the last two frames.
        #expect(run.frames.count == 12)
        #expect(run.frames.last?.touches.map(\.phase) == [.ended])
    }

    @Test("pinch_to_zoom.zoom_in.dat: final positions (1318, 255) and (522, 1232); packets continue a slot without ABS_MT_SLOT")
    func pinchToZoomFinalPositions() throws {
        // No header: resolution 1 makes millimetres equal device units.
        let run = try mtbDecodeFile("pinch_to_zoom.zoom_in.dat", resolution: (x: 1, y: 1))
        #expect(run.errorCount == 0)
        #expect(run.diagnostics.isEmpty, "\(run.diagnostics)")
        let ids = mtbContactIDs(run.frames)
        try #require(ids.count == 2, "contacts: \(ids)")
        let last0 = try #require(mtbPoints(run.frames, id: ids[0]).last).position
        let last1 = try #require(mtbPoints(run.frames, id: ids[1]).last).position
        #expect(Int(last0.x.rounded()) == 1318 && Int(last0.y.rounded()) == 255, "\(last0)")
        #expect(Int(last1.x.rounded()) == 522 && Int(last1.y.rounded()) == 1232, "\(last1)")
        // Where they lift, they are still there.
        #expect(mtbPackets(run.frames, id: ids[0]).last?.phase == .ended)
        #expect(mtbPackets(run.frames, id: ids[1]).last?.phase == .ended)
    }

    // MARK: Report rates

    /// (frames − 1) / (last time − first time) gives the stated figures; frames /
    /// duration gives 161.0 and 41.53 Hz, which do not match.
    @Test("report rates: one_finger_with_slot_0.dat 148.65 Hz, 2f_scroll_diagonal.dat 40.31 Hz",
          arguments: [("one_finger_with_slot_0.dat", 148.65), ("2f_scroll_diagonal.dat", 40.31)])
    func reportRate(file: String, hertz: Double) throws {
        let run = try mtbDecodeFile(file, resolution: file.hasPrefix("2f") ? (x: 1, y: 1) : nil)
        #expect(run.errorCount == 0)
        let first = try #require(run.frames.first).time
        let last = try #require(run.frames.last).time
        let intervals = Double(run.frames.count - 1) / (last - first)
        #expect(abs(intervals - hertz) <= 0.01, "\(run.frames.count) frames over \(last - first) s: \(intervals) Hz")
        let perDuration = Double(run.frames.count) / (last - first)
        #expect(abs(perDuration - hertz) > 0.01, "frames / duration also matches: \(perDuration)")
        // Every packet became a frame: the SYN_REPORT count equals the frame count.
        let text = try String(contentsOfFile: touchMTBDataDirectory + "/" + file, encoding: .utf8)
        let reports = text.components(separatedBy: "SYN_REPORT").count - 1
        #expect(run.frames.count == reports)
    }

    // MARK: Firmware oddities

    @Test("finger_crossing…slow.dat: a tracking id changing without -1 is repaired and reported once, with its line")
    func fingerCrossing() throws {
        let name = "finger_crossing.top_right_to_bottom_left.slow.dat"
        let run = try mtbDecodeFile(name)
        #expect(run.errorCount == 0)
        let expected = [
            Diagnostic(source: name, line: 331, message: AssemblyAnomaly.trackingIDChangedWithoutLift.message),
            // Line 365: slot 1 gets a -1 although it never had a contact in the file.
            Diagnostic(source: name, line: 365, message: AssemblyAnomaly.liftForSlotWithoutContact.message),
        ]
        #expect(run.diagnostics == expected, "\(run.diagnostics.map(\.description))")
        // The old contact (tracking id 1016) ends in the frame where id 1017 begins.
        let ids = mtbContactIDs(run.frames)
        #expect(ids.count >= 2)
        let switchFrame = try #require(run.frames.first { f in f.touches.contains { $0.id == ids[1] } })
        #expect(switchFrame.touches.first { $0.id == ids[0] }?.phase == .ended)
        #expect(switchFrame.touches.first { $0.id == ids[1] }?.phase == .began)
        // Nothing is left down at the end, and every frame's contacts are distinct.
        #expect(run.frames.last?.activeCount == 0)
        #expect(run.frames.allSatisfy { Set($0.touches.map(\.id)).count == $0.touches.count })
    }

    @Test("two_finger_tap.vertical.dat: a -1 for a slot with no contact, and a contact already down, each reported once")
    func twoFingerTapVertical() throws {
        let name = "two_finger_tap.vertical.dat"
        let run = try mtbDecodeFile(name)
        #expect(run.errorCount == 0)
        let expected = [
            Diagnostic(source: name, line: 71, message: AssemblyAnomaly.liftForSlotWithoutContact.message),
            Diagnostic(source: name, line: 77, message: AssemblyAnomaly.contactAlreadyDown.message),
        ]
        #expect(run.diagnostics == expected, "\(run.diagnostics.map(\.description))")
        // The finger already down lands in the first packet at (1251, 918); the second
        // (tracking id 258) at (1955, 917); both lift together.
        try #require(run.frames.count == 3, "\(run.frames)")
        #expect(run.frames[0].touches.map(\.phase) == [.began])
        let p0 = try #require(run.frames[0].touches.first).position
        #expect(mtbUnits(p0.x, resolution: 31) == 1251 && mtbUnits(p0.y, resolution: 31) == 918, "\(p0)")
        #expect(run.frames[1].touches.map(\.phase) == [.stationary, .began])
        let p1 = try #require(run.frames[1].touches.last).position
        #expect(mtbUnits(p1.x, resolution: 31) == 1955 && mtbUnits(p1.y, resolution: 31) == 917, "\(p1)")
        #expect(run.frames[2].touches.map(\.phase) == [.ended, .ended])
    }
}

// MARK: - The slot assembler on hand-written evemu text

/// Joins evemu lines with "\n" and ends with a newline.
private func evemuText(_ lines: String...) -> String {
    lines.joined(separator: "\n") + "\n"
}

/// Decodes evemu text through `EvemuDecoder`, fed in small chunks so that lines
/// split across reads too.
private func decodeEvemuText(_ text: String, resolution: (x: Double, y: Double)? = nil) -> MTBDecoded {
    var decoder = EvemuDecoder(source: "synthetic.evemu", resolution: resolution)
    var frames: [TouchFrame] = []
    Array(text.utf8).withUnsafeBytes { all in
        var start = 0
        while start < all.count {
            let end = min(all.count, start + 7)
            decoder.feed(UnsafeRawBufferPointer(rebasing: all[start..<end])) { frames.append($0) }
            start = end
        }
    }
    decoder.finish { frames.append($0) }
    return MTBDecoded(frames: frames, diagnostics: decoder.diagnostics, errorCount: decoder.errorCount,
                      format: .evemu, eventCount: decoder.eventCount)
}

/// "id:phase@(x,y)" for each touch of a frame, positions in mm to 0.01.
private func frameSummary(_ frame: TouchFrame) -> [String] {
    frame.touches.map { t in
        let x = (t.position.x * 100).rounded() / 100
        let y = (t.position.y * 100).rounded() / 100
        return "\(t.id):\(t.phase)@(\(x),\(y))"
    }
}

/// A 10-slot protocol-B touchscreen at 10 units/mm, 100 × 100 mm.
private let tenSlotHeader = [
    "N: synthetic panel",
    "I: 0018 0000 0000 0000",
    "P: 02 00 00 00 00 00 00 00",
    "A: 2f 0 9 0 0 0",
    "A: 35 0 1000 0 0 10",
    "A: 36 0 1000 0 0 10",
    "A: 39 0 65535 0 0 0",
]

@Suite("Slot assembler on synthetic evemu")
struct SlotAssemblerSyntheticTests {
    @Test("SYN_DROPPED cancels touches in progress and ignores events up to and including the next SYN_REPORT")
    func synDropped() {
        let lines = tenSlotHeader + [
            "E: 0.000000 0003 002f 0",      // 8
            "E: 0.000000 0003 0039 1",      // 9
            "E: 0.000000 0003 0035 100",    // 10
            "E: 0.000000 0003 0036 200",    // 11
            "E: 0.000000 0000 0000 0000",   // 12
            "E: 0.010000 0003 0035 110",    // 13
            "E: 0.010000 0000 0000 0000",   // 14
            "E: 0.020000 0000 0003 0000",   // 15 SYN_DROPPED
            // Dropped: a lift of slot 0, and a second finger landing in slot 1.
            "E: 0.020000 0003 0039 -001",   // 16
            "E: 0.020000 0003 002f 1",      // 17
            "E: 0.020000 0003 0039 2",      // 18
            "E: 0.020000 0003 0035 500",    // 19
            "E: 0.020000 0003 0036 500",    // 20
            "E: 0.030000 0000 0000 0000",   // 21 ends the drop
            // Afterwards: a position with no tracking id lands nothing.
            "E: 0.040000 0003 0035 600",    // 22
            "E: 0.040000 0000 0000 0000",   // 23
            // A new contact in slot 0 is a new contact.
            "E: 0.050000 0003 002f 0",      // 24
            "E: 0.050000 0003 0039 3",      // 25
            "E: 0.050000 0003 0035 300",    // 26
            "E: 0.050000 0003 0036 300",    // 27
            "E: 0.050000 0000 0000 0000",   // 28
            "E: 0.060000 0003 0039 -001",   // 29
            "E: 0.060000 0000 0000 0000",   // 30
        ]
        let run = decodeEvemuText(lines.joined(separator: "\n") + "\n")
        #expect(run.errorCount == 0)
        #expect(run.diagnostics == [Diagnostic(source: "synthetic.evemu", line: 15, message: AssemblyAnomaly.eventsDropped.message)])
        #expect(run.frames.map(frameSummary) == [
            ["1:began@(10.0,20.0)"],
            ["1:moved@(11.0,20.0)"],
            ["1:cancelled@(11.0,20.0)"],
            ["2:began@(30.0,30.0)"],
            ["2:ended@(30.0,30.0)"],
        ])
        #expect(run.frames.map(\.time) == [0, 0.01, 0.03, 0.05, 0.06])
    }

    @Test("protocol A: two contacts matched by nearest position keep their ids; one lifts")
    func protocolA() {
        // No slots and no tracking ids; the packet order of the two fingers swaps.
        let text = evemuText(
            "E: 0.000000 0003 0035 100", "E: 0.000000 0003 0036 100", "E: 0.000000 0000 0002 0000",
            "E: 0.000000 0003 0035 500", "E: 0.000000 0003 0036 100", "E: 0.000000 0000 0002 0000",
            "E: 0.000000 0000 0000 0000",
            "E: 0.010000 0003 0035 502", "E: 0.010000 0003 0036 101", "E: 0.010000 0000 0002 0000",
            "E: 0.010000 0003 0035 102", "E: 0.010000 0003 0036 101", "E: 0.010000 0000 0002 0000",
            "E: 0.010000 0000 0000 0000",
            "E: 0.020000 0003 0035 504", "E: 0.020000 0003 0036 102", "E: 0.020000 0000 0002 0000",
            "E: 0.020000 0000 0000 0000",
            "E: 0.030000 0000 0002 0000",
            "E: 0.030000 0000 0000 0000")
        let run = decodeEvemuText(text, resolution: (x: 10, y: 10))
        #expect(run.errorCount == 0)
        #expect(run.diagnostics.isEmpty, "\(run.diagnostics)")
        let expected = [
            ["1:began@(10.0,10.0)", "2:began@(50.0,10.0)"],
            ["1:moved@(10.2,10.1)", "2:moved@(50.2,10.1)"],
            ["1:ended@(10.2,10.1)", "2:moved@(50.4,10.2)"],
            ["2:ended@(50.4,10.2)"],
        ]
        // The first contact's X/Y come before any SYN_MT_REPORT has shown the
        // stream to be protocol A; they are kept, and both fingers land at once.
        #expect(run.frames.map(frameSummary) == expected)
    }

    @Test("protocol A, after the first packet: nearest matching keeps ids stable while one contact lifts")
    func protocolAAfterFirstPacket() {
        // A first packet with an empty SYN_MT_REPORT marks the stream as protocol A
        // before any contact, so this checks the matching on its own.
        let text = evemuText(
            "E: 0.000000 0000 0002 0000", "E: 0.000000 0000 0000 0000",
            "E: 0.010000 0003 0035 100", "E: 0.010000 0003 0036 100", "E: 0.010000 0000 0002 0000",
            "E: 0.010000 0003 0035 500", "E: 0.010000 0003 0036 100", "E: 0.010000 0000 0002 0000",
            "E: 0.010000 0000 0000 0000",
            "E: 0.020000 0003 0035 502", "E: 0.020000 0003 0036 101", "E: 0.020000 0000 0002 0000",
            "E: 0.020000 0003 0035 102", "E: 0.020000 0003 0036 101", "E: 0.020000 0000 0002 0000",
            "E: 0.020000 0000 0000 0000",
            "E: 0.030000 0003 0035 504", "E: 0.030000 0003 0036 102", "E: 0.030000 0000 0002 0000",
            "E: 0.030000 0000 0000 0000",
            "E: 0.040000 0000 0002 0000",
            "E: 0.040000 0000 0000 0000")
        let run = decodeEvemuText(text, resolution: (x: 10, y: 10))
        #expect(run.errorCount == 0)
        #expect(run.diagnostics.isEmpty, "\(run.diagnostics)")
        #expect(run.frames.map(frameSummary) == [
            ["1:began@(10.0,10.0)", "2:began@(50.0,10.0)"],
            ["1:moved@(10.2,10.1)", "2:moved@(50.2,10.1)"],
            ["1:ended@(10.2,10.1)", "2:moved@(50.4,10.2)"],
            ["2:ended@(50.4,10.2)"],
        ])
    }

    @Test("BTN_TOOL_TRIPLETAP on a 2-slot device reports 3 fingers; on a 10-slot device 0",
          arguments: [(1, 3), (9, 0)])
    func tripleTap(slotMax: Int, reported: Int) throws {
        let text = evemuText(
            "N: synthetic pad", "I: 0011 0002 0000 0000", "P: 00 00 00 00 00 00 00 00",
            "A: 2f 0 \(slotMax) 0 0 0", "A: 35 0 1000 0 0 10", "A: 36 0 1000 0 0 10", "A: 39 0 65535 0 0 0",
            "E: 0.000000 0003 002f 0", "E: 0.000000 0003 0039 1", "E: 0.000000 0003 0035 100", "E: 0.000000 0003 0036 100",
            "E: 0.000000 0003 002f 1", "E: 0.000000 0003 0039 2", "E: 0.000000 0003 0035 300", "E: 0.000000 0003 0036 100",
            "E: 0.000000 0001 014a 1", "E: 0.000000 0001 014e 1",
            "E: 0.000000 0000 0000 0000",
            "E: 0.010000 0003 002f 0", "E: 0.010000 0003 0036 102",
            "E: 0.010000 0000 0000 0000",
            "E: 0.020000 0003 0039 -001", "E: 0.020000 0003 002f 1", "E: 0.020000 0003 0039 -001",
            "E: 0.020000 0001 014a 0", "E: 0.020000 0001 014e 0",
            "E: 0.020000 0000 0000 0000")
        let run = decodeEvemuText(text)
        #expect(run.errorCount == 0)
        #expect(run.diagnostics.isEmpty, "\(run.diagnostics)")
        try #require(run.frames.count == 3)
        #expect(run.frames[0].touches.count == 2)
        #expect(run.frames[0].reportedFingers == reported)
        #expect(run.frames[1].reportedFingers == reported)
        #expect(run.frames[2].reportedFingers == 0)
    }

    @Test("a new contact without ABS_MT_POSITION_X keeps the slot's previous X")
    func missingXKeepsPrevious() {
        let lines = tenSlotHeader + [
            "E: 0.000000 0003 0039 1", "E: 0.000000 0003 0035 100", "E: 0.000000 0003 0036 200",
            "E: 0.000000 0000 0000 0000",
            "E: 0.050000 0003 0039 -001", "E: 0.050000 0000 0000 0000",
            // The next contact in slot 0 sends only Y: X is unchanged, so not re-sent.
            "E: 0.300000 0003 0039 2", "E: 0.300000 0003 0036 300",
            "E: 0.300000 0000 0000 0000",
            "E: 0.350000 0003 0039 -001", "E: 0.350000 0000 0000 0000",
        ]
        let run = decodeEvemuText(lines.joined(separator: "\n") + "\n")
        #expect(run.errorCount == 0)
        #expect(run.diagnostics.isEmpty, "\(run.diagnostics)")
        #expect(run.frames.map(frameSummary) == [
            ["1:began@(10.0,20.0)"],
            ["1:ended@(10.0,20.0)"],
            ["2:began@(10.0,30.0)"],
            ["2:ended@(10.0,30.0)"],
        ])
    }

    @Test("a single-touch device (BTN_TOUCH + ABS_X/ABS_Y, no MT axes) produces a contact")
    func singleTouchDevice() {
        let text = evemuText(
            "N: synthetic single-touch", "I: 0003 0000 0000 0000", "P: 00 00 00 00 00 00 00 00",
            "A: 00 0 1000 0 0 10", "A: 01 0 1000 0 0 10",
            "E: 0.000000 0003 0000 100", "E: 0.000000 0003 0001 200", "E: 0.000000 0001 014a 1",
            "E: 0.000000 0000 0000 0000",
            "E: 0.010000 0003 0000 110",
            "E: 0.010000 0000 0000 0000",
            "E: 0.020000 0003 0001 210",
            "E: 0.020000 0000 0000 0000",
            "E: 0.030000 0001 014a 0",
            "E: 0.030000 0000 0000 0000")
        let run = decodeEvemuText(text)
        #expect(run.errorCount == 0)
        #expect(run.diagnostics.isEmpty, "\(run.diagnostics)")
        #expect(run.frames.map(frameSummary) == [
            ["1:began@(10.0,20.0)"],
            ["1:moved@(11.0,20.0)"],
            ["1:moved@(11.0,21.0)"],
            ["1:ended@(11.0,21.0)"],
        ])
    }

    @Test("semi-MT (P: 08): the second contact moves exactly as the first")
    func semiMT() throws {
        let text = evemuText(
            "N: synthetic semi-mt pad", "I: 0011 0002 0000 0000", "P: 08 00 00 00 00 00 00 00",
            "A: 2f 0 1 0 0 0", "A: 35 0 1000 0 0 10", "A: 36 0 1000 0 0 10", "A: 39 0 65535 0 0 0",
            "E: 0.000000 0003 002f 0", "E: 0.000000 0003 0039 1", "E: 0.000000 0003 0035 100", "E: 0.000000 0003 0036 100",
            "E: 0.000000 0003 002f 1", "E: 0.000000 0003 0039 2", "E: 0.000000 0003 0035 300", "E: 0.000000 0003 0036 400",
            "E: 0.000000 0001 014a 1", "E: 0.000000 0001 014d 1",
            "E: 0.000000 0000 0000 0000",
            // The first corner moves by (+50, +20); the other corner reports something else.
            "E: 0.010000 0003 002f 0", "E: 0.010000 0003 0035 150", "E: 0.010000 0003 0036 120",
            "E: 0.010000 0003 002f 1", "E: 0.010000 0003 0035 320", "E: 0.010000 0003 0036 380",
            "E: 0.010000 0000 0000 0000",
            // Only the first corner moves, by (−10, +30) more.
            "E: 0.020000 0003 002f 0", "E: 0.020000 0003 0035 140", "E: 0.020000 0003 0036 150",
            "E: 0.020000 0000 0000 0000")
        let run = decodeEvemuText(text)
        #expect(run.errorCount == 0)
        #expect(run.diagnostics.isEmpty, "\(run.diagnostics)")
        try #require(run.frames.count >= 3)
        #expect(Array(run.frames.prefix(3)).map(frameSummary) == [
            ["1:began@(10.0,10.0)", "2:began@(30.0,40.0)"],
            ["1:moved@(15.0,12.0)", "2:moved@(35.0,42.0)"],
            ["1:moved@(14.0,15.0)", "2:moved@(34.0,45.0)"],
        ])
        // The input ends with both down: the decoder cancels them.
        #expect(run.frames.last?.touches.map(\.phase) == [.cancelled, .cancelled])
    }
}
