import Foundation

/// What the desktop's Wayland client (`gesture-client/`) was sent, read from
/// its lines; times are the compositor's, in ms.
struct ClientReading {
    /// A pointer gesture (zwp_pointer_gestures_v1) from its begin to its end.
    struct Gesture {
        var kind: String
        var fingers: Int
        var begin: Double
        var updates: [(time: Double, dx: Double, dy: Double)] = []
        /// nil while it has not ended; true when the compositor cancelled it.
        var cancelled: Bool?

        /// How far its updates went, summed (the path's length, in pixels).
        var travel: Double { updates.reduce(0) { $0 + hypot($1.dx, $1.dy) } }
        var sum: (dx: Double, dy: Double) { updates.reduce((0, 0)) { ($0.0 + $1.dx, $0.1 + $1.dy) } }
    }

    /// (time, x, y) of each wl_pointer motion.
    var motions: [(time: Double, x: Double, y: Double)] = []
    var scroll = (vertical: 0.0, horizontal: 0.0)
    /// "BUTTON pressed" or "BUTTON released", in order.
    var buttons: [String] = []
    var touchDowns = 0, touchUps = 0
    /// Time of each wl_touch motion.
    var touchMotionTimes: [Double] = []
    /// Swipes, pinches and holds, in the order they began.
    var gestures: [Gesture] = []
    /// Lines the reading did not know: a client and a reading that disagree show here.
    var unread: [String] = []

    init(lines: [String]) {
        for line in lines {
            let word = line.split(separator: " ").map(String.init)
            guard word.count >= 2 else { continue }
            let time = word.count >= 3 ? Double(word[2]) : nil
            func number(_ index: Int) -> Double? { index < word.count ? Double(word[index]) : nil }
            switch (word[0], word[1]) {
            case ("pointer", "motion"):
                guard let time, let x = number(3), let y = number(4) else { unread.append(line); continue }
                motions.append((time, x, y))
            case ("pointer", "axis"):
                guard word.count == 5, let value = number(4) else { unread.append(line); continue }
                if word[3] == "vertical" { scroll.vertical += value } else { scroll.horizontal += value }
            case ("pointer", "button"):
                guard word.count == 5 else { unread.append(line); continue }
                buttons.append(word[3] + " " + word[4])
            case ("touch", "down"): touchDowns += 1
            case ("touch", "up"): touchUps += 1
            case ("touch", "motion"):
                guard let time else { unread.append(line); continue }
                touchMotionTimes.append(time)
            case ("swipe", "begin"), ("pinch", "begin"), ("hold", "begin"):
                guard let time, let fingers = number(3) else { unread.append(line); continue }
                gestures.append(Gesture(kind: word[0], fingers: Int(fingers.rounded()), begin: time))
            case ("swipe", "update"), ("pinch", "update"):
                guard let time, let dx = number(3), let dy = number(4), gestures.last?.kind == word[0], gestures.last?.cancelled == nil else {
                    unread.append(line); continue
                }
                gestures[gestures.count - 1].updates.append((time, dx, dy))
            case ("swipe", "end"), ("pinch", "end"), ("hold", "end"):
                guard word.count == 4, gestures.last?.kind == word[0], gestures.last?.cancelled == nil else { unread.append(line); continue }
                gestures[gestures.count - 1].cancelled = word[3] == "cancelled"
            case ("pointer", _), ("touch", _), ("ready", _), ("gestures", _), ("seat", _): continue
            default: unread.append(line)
            }
        }
    }

    /// The gestures of this kind ("swipe", "pinch", "hold") it was sent.
    func gestures(_ kind: String) -> [Gesture] { gestures.filter { $0.kind == kind } }

    /// How far the pointer went: the length of its path, in pixels.
    var pointerTravel: Double {
        zip(motions, motions.dropFirst()).reduce(0) { $0 + hypot($1.1.x - $1.0.x, $1.1.y - $1.0.y) }
    }

    /// Seconds from the first to the last of these times (ms).
    static func spread(_ times: [Double]) -> Double { ((times.max() ?? 0) - (times.min() ?? 0)) / 1000 }
}
