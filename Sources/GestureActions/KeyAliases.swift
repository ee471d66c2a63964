/// gesturemap's own short names for keys whose kernel names people do not type,
/// written as the docs write them. The X names (Next, Prior, Escape, Return,
/// Print) are in xKeysymNames.
let keyAliases: [(name: String, key: String)] = [
    ("ctrl", "KEY_LEFTCTRL"), ("control", "KEY_LEFTCTRL"), ("rctrl", "KEY_RIGHTCTRL"),
    ("alt", "KEY_LEFTALT"), ("ralt", "KEY_RIGHTALT"), ("altgr", "KEY_RIGHTALT"),
    ("shift", "KEY_LEFTSHIFT"), ("rshift", "KEY_RIGHTSHIFT"),
    ("super", "KEY_LEFTMETA"), ("meta", "KEY_LEFTMETA"), ("win", "KEY_LEFTMETA"), ("windows", "KEY_LEFTMETA"),
    ("logo", "KEY_LEFTMETA"), ("cmd", "KEY_LEFTMETA"),
    ("pgdn", "KEY_PAGEDOWN"), ("pgup", "KEY_PAGEUP"),
    ("del", "KEY_DELETE"), ("ins", "KEY_INSERT"),
    ("bs", "KEY_BACKSPACE"), ("spacebar", "KEY_SPACE"), ("caps", "KEY_CAPSLOCK"),
    ("printscreen", "KEY_SYSRQ"), ("plus", "KEY_KPPLUS"),
    ("volup", "KEY_VOLUMEUP"), ("voldown", "KEY_VOLUMEDOWN"),
    // X's Pause is the kernel's PAUSE key; here it has always been the media key.
    ("play", "KEY_PLAYPAUSE"), ("pause", "KEY_PLAYPAUSE"),
]
