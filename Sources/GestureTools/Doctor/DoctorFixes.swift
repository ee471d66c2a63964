import GestureInput
import GestureSystem

/// The fixes doctor gives for access, as commands to run as they are: the
/// real user's name, the udev rule where this install or checkout holds it,
/// and only the steps not yet done (a rule installed is not copied again).
struct DoctorFixes {
    /// Who runs doctor, and so the run.
    var user: String
    /// Where udev reads 70-gesturemap.rules from; nil when it is not installed.
    var installedRule: String?
    /// The shipped rule's absolute path; nil when no install or checkout here holds it.
    var ruleSource: String?
    var readerGroup: SystemUser.Membership

    /// What udev's database says of a node: whether the rule's uaccess tag is on it.
    enum Applied { case tagged, untagged, unknown }

    static let ruleName = "70-gesturemap.rules"
    static let reload = "sudo udevadm control --reload && sudo udevadm trigger"

    /// Putting the rule where udev reads it, and applying it.
    var installRule: String {
        let copy = ruleSource.map { "sudo cp \($0) /etc/udev/rules.d/" }
            ?? "sudo cp \(Self.ruleName) /etc/udev/rules.d/   # from examples/udev/ in gesturemap's source"
        return copy + "\n" + Self.reload + "\nthen log out and in again at the seat (no group to join, not even input)"
    }

    /// For a touch device this user may not read.
    func readDevice(_ node: String, _ applied: Applied) -> String {
        [seat(giving: "touch devices", node, applied), kioskReader].compactMap { $0 }.joined(separator: "\n")
    }

    /// For a uinput node this user may not write.
    func writeUinput(_ node: String, _ applied: Applied) -> String {
        let kiosk = user == "gesturemap" ? nil : UinputAdvice.kiosk + "; or run with --dry-run to print what would be sent"
        return [seat(giving: node, node, applied), kiosk].compactMap { $0 }.joined(separator: "\n")
    }

    /// What is left to do for the user at the seat to get `what`, by how far the rule has come.
    private func seat(giving what: String, _ node: String, _ applied: Applied) -> String {
        guard let installedRule else {
            return "the udev rule \(Self.ruleName) gives \(what) to the user logged in at the seat (uaccess):\n"
                + installRule.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
        }
        switch applied {
        case .tagged:
            return "\(Self.ruleName) is installed (\(installedRule)) and applied: \(node) is tagged uaccess, which logind turns into access for the user of the seat's active session; \(user) is not that user now (a login over ssh, or another session active at the seat?): log in at the seat"
        case .untagged:
            return "\(Self.ruleName) is installed (\(installedRule)) but not applied to \(node):\n  " + Self.reload
        case .unknown:
            return "\(Self.ruleName) is installed (\(installedRule)); udev's database has no entry for \(node), so it is not applied yet:\n  " + Self.reload
        }
    }

    /// A kiosk reads the touch devices through the group the rule gives them.
    private var kioskReader: String? {
        if !readerGroup.groupExists {
            return "a kiosk with no one at the seat: sudo addgroup --system gesturemap && sudo adduser \(user) gesturemap, then \(Self.reload) (udevd looks the group up when it reads the rule; reading only)"
        }
        if !readerGroup.listed { return "a kiosk with no one at the seat: sudo adduser \(user) gesturemap (reading only)" }
        if !readerGroup.inProcess { return "\(user) is in the group gesturemap, but this session began before that: log in again" }
        return nil
    }
}
