/// A kernel key's name as the docs write it: without KEY_, each word
/// capitalised (PageDown, Esc, F5, TouchpadToggle, KPEnter).
func displayName(ofKernel name: String) -> String {
    let bare = name.hasPrefix("KEY_") ? String(name.dropFirst(4)) : name
    if let spelled = runTogetherWords[bare] { return spelled }
    if bare.hasPrefix("KP"), bare.count > 2 { return "KP" + capitalised(bare.dropFirst(2)) }
    return bare.split(separator: "_").map(capitalised).joined()
}

private func capitalised(_ word: Substring) -> String {
    word.prefix(1).uppercased() + word.dropFirst().lowercased()
}

/// The kernel runs the words of these names together, and they are the ones
/// people type (or nearly).
private let runTogetherWords: [String: String] = [
    "PAGEUP": "PageUp", "PAGEDOWN": "PageDown", "CAPSLOCK": "CapsLock", "NUMLOCK": "NumLock",
    "SCROLLLOCK": "ScrollLock", "SYSRQ": "SysRq", "LINEFEED": "LineFeed",
    "LEFTCTRL": "LeftCtrl", "RIGHTCTRL": "RightCtrl", "LEFTSHIFT": "LeftShift", "RIGHTSHIFT": "RightShift",
    "LEFTALT": "LeftAlt", "RIGHTALT": "RightAlt", "LEFTMETA": "LeftMeta", "RIGHTMETA": "RightMeta",
    "LEFTBRACE": "LeftBrace", "RIGHTBRACE": "RightBrace",
    "VOLUMEUP": "VolumeUp", "VOLUMEDOWN": "VolumeDown", "MICMUTE": "MicMute",
    "PLAYPAUSE": "PlayPause", "NEXTSONG": "NextSong", "PREVIOUSSONG": "PreviousSong",
    "FASTFORWARD": "FastForward", "STOPCD": "StopCD", "PLAYCD": "PlayCD", "PAUSECD": "PauseCD",
    "EJECTCD": "EjectCD", "CLOSECD": "CloseCD", "EJECTCLOSECD": "EjectCloseCD",
    "BRIGHTNESSUP": "BrightnessUp", "BRIGHTNESSDOWN": "BrightnessDown",
    "KBDILLUMUP": "KbdIllumUp", "KBDILLUMDOWN": "KbdIllumDown", "KBDILLUMTOGGLE": "KbdIllumToggle",
    "SWITCHVIDEOMODE": "SwitchVideoMode", "SCREENLOCK": "ScreenLock", "CYCLEWINDOWS": "CycleWindows",
    "HOMEPAGE": "HomePage", "WWW": "WWW", "FORWARDMAIL": "ForwardMail", "SENDFILE": "SendFile",
    "DELETEFILE": "DeleteFile", "WAKEUP": "WakeUp", "SCROLLUP": "ScrollUp", "SCROLLDOWN": "ScrollDown",
    "ZOOMIN": "ZoomIn", "ZOOMOUT": "ZoomOut", "ZOOMRESET": "ZoomReset",
    "CHANNELUP": "ChannelUp", "CHANNELDOWN": "ChannelDown",
    "ZENKAKUHANKAKU": "ZenkakuHankaku", "KATAKANAHIRAGANA": "KatakanaHiragana",
    "KPLEFTPAREN": "KPLeftParen", "KPRIGHTPAREN": "KPRightParen", "KPPLUSMINUS": "KPPlusMinus",
    "KPJPCOMMA": "KPJPComma",
]
