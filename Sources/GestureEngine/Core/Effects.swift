import GestureActions

/// What the rules' actions reach besides stdout: the programs they start, and
/// the virtual keyboard key() types on (made at start, or at first use).
struct Effects {
    let launcher = ProcessLauncher()
    var keyboard: VirtualKeyboard?
}
