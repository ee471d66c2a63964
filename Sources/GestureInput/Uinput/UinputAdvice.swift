import GestureSystem

/// How to get uinput, worded once: the run's messages (`UinputAccessError`)
/// and doctor's fixes say it in these words.
public enum UinputAdvice {
    /// Loads the module now and at every boot.
    public static let loadModule = "sudo modprobe uinput && echo uinput | sudo tee /etc/modules-load.d/uinput.conf"

    /// The user at the seat: the udev rule gives uinput to whoever logs in there.
    public static var seat: String {
        "the udev rule 70-gesturemap.rules gives it to the user logged in at the seat: install it (the package does; from a build, \(copyRule)) and log in again at the seat"
    }

    /// A kiosk, where no one is at the seat: the rule's own user.
    public static let kiosk = "a kiosk that runs gesturemap with no one at the seat runs it as the gesturemap user instead, which the rule gives uinput to (User=gesturemap in its system service; the package creates that user, and the rule's first lines say how from a build)"

    /// Putting the udev rule in place, from where this binary's install or checkout holds it.
    public static var copyRule: String {
        guard let rule = InstalledFiles.example("udev/70-gesturemap.rules") else {
            return "copy examples/udev/70-gesturemap.rules from gesturemap's source to /etc/udev/rules.d/ and run sudo udevadm trigger"
        }
        return "sudo cp \(rule) /etc/udev/rules.d/ && sudo udevadm trigger"
    }
}
