/// Easystroke actions files written for the tests, token by token as Boost's
/// text_oarchive writes them (a class's tracking flag and version the first
/// time it is met, object ids on a line of their own), each covering class
/// versions and list diffs real files have.
enum EasystrokeFixtures {
    /// ActionDB 3, Stroke 5, StrokeInfo 1, SendKey 1 (Easystroke 0.5.6):
    /// the default list binds a stroke left (Command firefox), up (SendKey
    /// shift+ctrl+T) and an instant gesture with the right button (SendText);
    /// Firefox's list deletes the first, gives the second alt+Left (its name
    /// and stroke its parent's) and adds a stroke down.
    static let current = """
    22 serialization::archive 17 0 3 0 1 0 0 0 0 0 0 3 0 0 0 5 1 0
    0 0 1 1 0
    1 0 0 1 1 0 1 10 1 5
    2 0 0 2 1 0 1 1.0 0.5 0.0 0.5 0 0 0 32768 0 1 14 7 Command 1 0
    3 0 0 7 firefox 7 browser 5
    4
    5 1 1 10
    6 2 1 0.5 1.0 0.5 0.0 0 0 0 32768 16 7 SendKey 1 1
    7 1 0
    8 5 84 0 3 tab 5
    9
    10 1 1 10
    11 0 1 3 0 0 32768 18 8 SendText 1 0
    12 2 hi 6 reopen 7 Default 0 0 1 1 1 0 5 0 2 0 5 4
    13 0 1 16
    14
    15 8 65361 0 0  5
    16
    17 1 1 10
    18 2 1 0.5 0.0 0.5 1.0 0 0 0 32768 14
    19 18 xdotool key ctrl+w 5 close 7 Firefox 0 1 1 0 0 1 0 5 16 0 3 0 5 0 5 4 5 9
    """

    /// ActionDB 1 (a map of numbers), StrokeInfo 0 (no name), Stroke 2
    /// (no timeout; its trigger the stroke button's number), Point 0 (a time
    /// after x and y), SendKey 0 (an XTest flag), in an archive of Boost's
    /// library version 3, whose collections have no item version.
    static let old = """
    22 serialization::archive 3 0 1 0 0 2 0 0 7 0 0
    1 0
    0 0 0 1 0 1 7 1 2
    1 0 0 2 0 0 0.0 0.0 0.0 1.0 0.0 5.0 0 2 0 1 11 7 SendKey 1 0
    2 1 0
    3 0 0 4 99 54 1 3
    4 1 7
    5 2 0.0 0.0 0.0 0.0 1.0 5.0 0 0 14 4 Misc 1 0
    6 2
    """

    /// ActionDB 0 (a map of names), Stroke 4: "back" is a stroke left drawn
    /// with the right button and a timeout gesture; "menu" an instant gesture,
    /// the left button clicked while the stroke button is held (Button 3).
    static let named = """
    22 serialization::archive 4 0 0 0 0 2 0 0 0 4 back 0 1 1 0
    0 0 0 2 1 0 1 7 1 4
    1 0 0 2 1 0 1 1.0 0.0 0.0 0.0 0 3 0 7
    2 2 1 0.0 0.0 1.0 1.0 0 0 1 0 1 11 7 Command 1 0
    3 0 0 20 xdotool key alt+Left 0  4 menu
    4 1 1 7
    5 0 1 1 0 0 13 6 Button 1 0
    6 1 0
    7 0 3 4 menu
    """
}
