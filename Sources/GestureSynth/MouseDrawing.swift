import GestureCore

/// A mouse's gestures as the native format's mouse lines: a stroke drawn with
/// a held button (the press, motion at 125 Hz as a USB mouse reports it, in
/// counts at 1000 dpi, with a hand's wobble, the release), a rocker, and a
/// button held while the wheel turns a notch. `synth` writes them; `run`
/// reads them back through the shared mouse's gate.
struct MouseDrawing {
    /// A USB mouse's report rate, and libinput's resolution for a mouse that gives none.
    static let rate = 125.0
    static let countsPerMillimetre = 1000 / 25.4
    /// A hand's wobble, mm: well under `MouseStrokeReading`'s 2 mm tolerance for a corner.
    static let wobble = 0.1

    enum Step: Equatable {
        case press(MouseButton)
        case release(MouseButton)
        case motion(dx: Int, dy: Int)
        case wheel(Direction)
    }

    var random: SeededRandom

    /// A stroke's path from the press, mm (y down): one straight arm a
    /// direction, each 25 to 45 mm, drawn at 120 to 250 mm/s, corners and all.
    mutating func stroke(_ arms: [Direction]) -> FingerTrack {
        var corners = [Vector.zero]
        for arm in arms {
            let angle = arm.screenAngle ?? 0
            let length = random.uniform(25...45)
            corners.append((corners.last ?? .zero) + Vector(cosDegrees(angle), sinDegrees(angle)) * length)
        }
        let path = ShapePath(corners)
        let moveStart = random.uniform(0.03...0.08)
        let moveEnd = moveStart + path.length / random.uniform(120...250)
        return FingerTrack(lands: 0, lifts: moveEnd + random.uniform(0.02...0.06), motion: .path(path),
                           moveStart: moveStart, moveEnd: moveEnd, easing: .smooth, noise: Self.wobble)
    }

    /// The track's motion as a mouse reports it: press, a packet of counts
    /// each 8 ms that it moved, release; times from the press.
    mutating func steps(along track: FingerTrack, button: MouseButton) -> [(time: Double, step: Step)] {
        var out: [(Double, Step)] = [(0, .press(button))]
        let origin = track.position(at: track.lands)
        var sent = (x: 0, y: 0)
        // The hand's wobble drifts rather than jumps: each report keeps most of the last one's.
        var wobble = Vector.zero
        let period = 1 / Self.rate
        var k = 1
        while Double(k) * period < track.lifts {
            let t = Double(k) * period
            k += 1
            guard t >= track.moveStart, t <= track.moveEnd + period else { continue }
            wobble = wobble * 0.85 + Vector(random.jitter(track.noise), random.jitter(track.noise)) * 0.5
            let p = track.position(at: t) - origin + wobble
            let counts = (x: Int((p.x * Self.countsPerMillimetre).rounded()), y: Int((p.y * Self.countsPerMillimetre).rounded()))
            guard counts != sent else { continue }
            out.append((t, .motion(dx: counts.x - sent.x, dy: counts.y - sent.y)))
            sent = counts
        }
        out.append((track.lifts, .release(button)))
        return out
    }

    /// A chord: the first button held, then a second button clicked or the
    /// wheel turned one notch, then the first let go; with none held, the
    /// second button's click alone.
    mutating func chord(held: MouseButton?, press: MouseButton?, wheel: Direction?) -> [(time: Double, step: Step)] {
        var out: [(Double, Step)] = []
        var t = 0.0
        if let held { out.append((t, .press(held))) }
        t += random.uniform(0.06...0.12)
        if let press {
            out.append((t, .press(press)))
            t += random.uniform(0.05...0.1)
            out.append((t, .release(press)))
        } else if let wheel {
            out.append((t, .wheel(wheel)))
        }
        t += random.uniform(0.06...0.12)
        if let held { out.append((t, .release(held))) }
        return out
    }
}

extension JSONLines {
    /// `{"t":0.1,"ev":"press","button":"right"}`, and the other mouse lines.
    mutating func mouse(_ step: MouseDrawing.Step, t: Double) {
        var json = JSONWriter()
        json.raw("{\"t\":")
        json.time(t)
        switch step {
        case .press(let button), .release(let button):
            json.raw(step == .press(button) ? ",\"ev\":\"press\",\"button\":" : ",\"ev\":\"release\",\"button\":")
            json.string(button.rawValue)
        case let .motion(dx, dy):
            json.raw(",\"ev\":\"motion\",\"dx\":")
            json.integer(Int64(dx))
            json.raw(",\"dy\":")
            json.integer(Int64(dy))
        case .wheel(let turn):
            json.raw(",\"ev\":\"wheel\",\"dir\":")
            json.string(turn.rawValue)
        }
        json.byte(0x7D)
        line(json.text)
    }
}
