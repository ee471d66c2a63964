/// What needed a uinput device, as the messages about it name it.
public enum UinputUser: Equatable, Sendable {
    /// A rule's key(): the virtual keyboard.
    case key
    /// A rule's pointer.*: the virtual mouse.
    case pointer
    /// A rule's touchpad.*: the virtual touchpad.
    case touchpad
    /// `--share` of a device: its node, or words for several ("each touch device").
    case share(device: String)

    /// Who asks, at the start of a message.
    var subject: String {
        switch self {
        case .key: return "key()"
        case .pointer: return "pointer"
        case .touchpad: return "touchpad"
        case .share: return "--share"
        }
    }

    /// What it asks uinput for, when the subject does not say it.
    var purpose: String? {
        guard case .share(let device) = self else { return nil }
        return "to give the desktop its copy of \(device)"
    }

    /// The device it makes, with `article` ("a" or "the").
    func device(_ article: String) -> String {
        switch self {
        case .key: return "\(article) virtual keyboard"
        case .pointer: return "\(article) virtual pointer"
        case .touchpad: return "\(article) virtual touchpad"
        case .share(let device): return "the desktop's copy of \(device)"
        }
    }

    /// How to go on without uinput.
    var otherwise: String {
        switch self {
        case .key: return "run with --dry-run to print the keys instead"
        case .pointer: return "run with --dry-run to print the pointer events instead"
        case .touchpad: return "run with --dry-run to print the touchpad events instead"
        case .share: return "run without --share (gesturemap then reads beside the desktop, which acts on the same fingers)"
        }
    }
}
