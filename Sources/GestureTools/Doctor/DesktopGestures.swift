import GestureCore

/// A gesture the desktop itself acts on, from its touchpad: where a rule for
/// the same fingers and way, beside the desktop, makes both act.
public struct DesktopGesture: Equatable, Sendable {
    public enum Kind: String, Sendable { case swipe, pinch, hold, tap }
    public var kind: Kind
    /// nil: any count.
    public var fingers: Int?
    /// Empty: any way.
    public var directions: [Direction]
    /// What the desktop does, for people.
    public var action: String

    public init(_ kind: Kind, fingers: Int?, _ directions: [Direction], _ action: String) {
        self.kind = kind
        self.fingers = fingers
        self.directions = directions
        self.action = action
    }

    /// Whether a rule with this spec acts on the same touchpad fingers.
    public func collides(with spec: GestureSpec) -> Bool {
        let sameKind: Bool
        switch (kind, spec.kind) {
        case (.swipe, .swipe), (.swipe, .pan), (.pinch, .pinch), (.hold, .longPress), (.tap, .tap): sameKind = true
        default: sameKind = false
        }
        guard sameKind else { return false }
        if let fingers, case .exactly(let n) = spec.fingers, n != fingers { return false }
        guard let way = spec.direction, !directions.isEmpty else { return true }
        return directions.contains(way) || directions.contains { $0.isDiagonal == false && way.rawValue.contains($0.rawValue) }
    }

    public var phrase: String {
        let count = fingers.map { "\($0)-finger " } ?? ""
        let ways = directions.isEmpty ? "" : " " + directions.map(\.rawValue).joined(separator: "/")
        return count + kind.rawValue + ways
    }

    // MARK: Each desktop's own

    /// GNOME Shell's touchpad swipes: three fingers from GNOME 40; GNOME 47 made
    /// four fingers do the same (the issue's peers: libinput-gestures#298).
    /// With its touchpad settings read: none while it reads no touchpad, and
    /// the taps that click while tap-to-click is on.
    static func gnome(major: Int?, touchpad: GnomeTouchpadSettings?) -> [DesktopGesture] {
        guard touchpad?.sendEvents != "disabled" else { return [] }
        return gnome(major: major) + (touchpad?.taps ?? [])
    }

    public static func gnome(major: Int?) -> [DesktopGesture] {
        guard let major, major >= 40 else { return [] }
        var counts = [3]
        if major >= 47 { counts.append(4) }
        return counts.flatMap { n in [
            DesktopGesture(.swipe, fingers: n, [.left, .right], "switches workspace, following the fingers"),
            DesktopGesture(.swipe, fingers: n, [.up, .down], "opens and closes the overview and the app grid"),
        ] }
    }

    /// KWin's built-in touchpad gestures (Plasma 5.24 and later): four fingers.
    /// The overview's and the desktop grid's go with their effects, which
    /// kwinrc may turn off.
    public static func kde(major: Int?) -> [DesktopGesture] {
        kde(major: major, effects: KWinEffectSettings())
    }

    static func kde(major: Int?, effects: KWinEffectSettings) -> [DesktopGesture] {
        guard let major, major >= 5 else { return [] }
        var found = [DesktopGesture(.swipe, fingers: 4, [.left, .right], "switches virtual desktop, following the fingers")]
        if effects.overview { found.append(DesktopGesture(.swipe, fingers: 4, [.up], "opens the overview")) }
        if effects.desktopGrid { found.append(DesktopGesture(.swipe, fingers: 4, [.down], "opens the desktop grid")) }
        return found
    }

    /// The config's `bindgesture` lines as written, trimmed.
    public static func swayBindgestureLines(config: String) -> [String] {
        config.split(separator: "\n").map { String($0).trimmed(of: " \t") }.filter {
            $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).first == "bindgesture"
        }
    }

    /// sway's `bindgesture` lines from its running config (`swaymsg -t get_config`):
    /// `bindgesture [--flags] swipe:3:right workspace next`.
    public static func sway(config: String) -> [DesktopGesture] {
        config.split(separator: "\n").compactMap { raw in
            let words = raw.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard words.first == "bindgesture" else { return nil }
            let rest = words.dropFirst().drop { $0.hasPrefix("--") }
            guard let trigger = rest.first else { return nil }
            let parts = trigger.split(separator: ":", omittingEmptySubsequences: false)
            guard let kind = parts.first.flatMap({ Kind(rawValue: String($0)) }) else { return nil }
            var fingers: Int?
            var directions: [Direction] = []
            for part in parts.dropFirst() {
                if let n = Int(part) { fingers = n; continue }
                for word in part.split(separator: "+") {
                    switch word {
                    case "inward": directions.append(.in)
                    case "outward": directions.append(.out)
                    default: if let d = Direction(rawValue: String(word)) { directions.append(d) }
                    }
                }
            }
            let command = rest.dropFirst().joined(separator: " ")
            return DesktopGesture(kind, fingers: fingers, directions, "runs \"\(command)\"")
        }
    }

    /// Hyprland's workspace swipe (`gestures:workspace_swipe`, with
    /// `workspace_swipe_fingers`), as `hyprctl -j getoption` gives them; and
    /// Hyprland 0.51's `gesture = 3, horizontal, workspace` lines.
    public static func hyprland(workspaceSwipe: Bool, fingers: Int?, gestureLines: [String]) -> [DesktopGesture] {
        var found: [DesktopGesture] = []
        if workspaceSwipe {
            found.append(DesktopGesture(.swipe, fingers: fingers ?? 3, [.left, .right], "switches workspace, following the fingers"))
        }
        for line in gestureLines {
            let fields = line.split(separator: "=", maxSplits: 1).last?.split(separator: ",").map { String($0).trimmed(of: " \t") } ?? []
            guard fields.count >= 3, let n = Int(fields[0]) else { continue }
            let ways: [Direction]
            switch fields[1] {
            case "horizontal": ways = [.left, .right]
            case "vertical": ways = [.up, .down]
            case "pinch", "pinchin", "pinchout": found.append(DesktopGesture(.pinch, fingers: n, [], "runs \(fields[2...].joined(separator: ", "))")); continue
            default: ways = fields[1].split(separator: "+").compactMap { Direction(rawValue: String($0)) }
            }
            found.append(DesktopGesture(.swipe, fingers: n, ways, "runs \(fields[2...].joined(separator: ", "))"))
        }
        return found
    }
}
