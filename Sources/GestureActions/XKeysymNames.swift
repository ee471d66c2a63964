// The X keysym names (X11 keysymdef.h) people paste from xdotool, xev and
// window-manager configs, for the keys whose kernel name differs. Each names
// the kernel key that X's default keymap (xkeyboard-config: keycodes/evdev,
// symbols/pc, keypad, inet) puts it on; where that keymap gives a name to two
// keys, either types it, and the entry takes the one the kernel names alike.
// X names that are the kernel's with an `_` (Page_Down, Caps_Lock, KP_Enter,
// KP_7) need no entry: `_` is optional.

/// X keysym name → the kernel keys it presses.
let xKeysymNames: [(name: String, keys: [String])] = [
    // Modifiers.
    ("Control_L", ["KEY_LEFTCTRL"]), ("Control_R", ["KEY_RIGHTCTRL"]),
    ("Shift_L", ["KEY_LEFTSHIFT"]), ("Shift_R", ["KEY_RIGHTSHIFT"]),
    ("Alt_L", ["KEY_LEFTALT"]), ("Alt_R", ["KEY_RIGHTALT"]),
    ("Super_L", ["KEY_LEFTMETA"]), ("Super_R", ["KEY_RIGHTMETA"]),
    // X's Meta is the Alt keys' second level (symbols/altwin meta_alt), and
    // applications read it as Alt; the kernel's META is the logo key (Super).
    ("Meta_L", ["KEY_LEFTALT"]), ("Meta_R", ["KEY_RIGHTALT"]),
    ("ISO_Level3_Shift", ["KEY_RIGHTALT"]),

    // Editing and moving.
    ("Return", ["KEY_ENTER"]), ("Escape", ["KEY_ESC"]),
    ("Prior", ["KEY_PAGEUP"]), ("Next", ["KEY_PAGEDOWN"]),
    // Tab's shifted level: X types it as shift+Tab, so it is both keys.
    ("ISO_Left_Tab", ["KEY_LEFTSHIFT", "KEY_TAB"]),
    // X's Print and Menu are the PrtSc key and the context-menu key beside
    // right Ctrl, which the kernel calls SYSRQ and COMPOSE; its KEY_PRINT and
    // KEY_MENU are other keys (KEY_MENU is X's XF86MenuKB).
    ("Print", ["KEY_SYSRQ"]), ("Menu", ["KEY_COMPOSE"]),

    // Punctuation named by its unshifted symbol.
    ("bracketleft", ["KEY_LEFTBRACE"]), ("bracketright", ["KEY_RIGHTBRACE"]), ("period", ["KEY_DOT"]),

    // Keypad, as it reads with Num Lock off, and its operators.
    ("KP_Insert", ["KEY_KP0"]), ("KP_End", ["KEY_KP1"]), ("KP_Down", ["KEY_KP2"]),
    ("KP_Next", ["KEY_KP3"]), ("KP_Page_Down", ["KEY_KP3"]), ("KP_Left", ["KEY_KP4"]),
    ("KP_Begin", ["KEY_KP5"]), ("KP_Right", ["KEY_KP6"]), ("KP_Home", ["KEY_KP7"]),
    ("KP_Up", ["KEY_KP8"]), ("KP_Prior", ["KEY_KP9"]), ("KP_Page_Up", ["KEY_KP9"]),
    ("KP_Delete", ["KEY_KPDOT"]), ("KP_Decimal", ["KEY_KPDOT"]),
    ("KP_Add", ["KEY_KPPLUS"]), ("KP_Subtract", ["KEY_KPMINUS"]),
    ("KP_Multiply", ["KEY_KPASTERISK"]), ("KP_Divide", ["KEY_KPSLASH"]),

    // Korean and Japanese conversion keys.
    ("Hangul", ["KEY_HANGEUL"]), ("Hangul_Hanja", ["KEY_HANJA"]),
    ("Henkan_Mode", ["KEY_HENKAN"]), ("Hiragana_Katakana", ["KEY_KATAKANAHIRAGANA"]),

    // Sound and media.
    ("XF86AudioMute", ["KEY_MUTE"]), ("XF86AudioMicMute", ["KEY_MICMUTE"]),
    ("XF86AudioLowerVolume", ["KEY_VOLUMEDOWN"]), ("XF86AudioRaiseVolume", ["KEY_VOLUMEUP"]),
    ("XF86AudioPlay", ["KEY_PLAYPAUSE"]), ("XF86AudioPause", ["KEY_PAUSECD"]),
    ("XF86AudioStop", ["KEY_STOPCD"]), ("XF86AudioNext", ["KEY_NEXTSONG"]),
    ("XF86AudioPrev", ["KEY_PREVIOUSSONG"]), ("XF86AudioRecord", ["KEY_RECORD"]),
    ("XF86AudioRewind", ["KEY_REWIND"]), ("XF86AudioForward", ["KEY_FASTFORWARD"]),
    ("XF86AudioMedia", ["KEY_MEDIA"]), ("XF86Eject", ["KEY_EJECTCD"]),

    // Screen, keyboard light, power and radios.
    ("XF86MonBrightnessUp", ["KEY_BRIGHTNESSUP"]), ("XF86MonBrightnessDown", ["KEY_BRIGHTNESSDOWN"]),
    ("XF86MonBrightnessCycle", ["KEY_BRIGHTNESS_CYCLE"]),
    ("XF86KbdBrightnessUp", ["KEY_KBDILLUMUP"]), ("XF86KbdBrightnessDown", ["KEY_KBDILLUMDOWN"]),
    ("XF86KbdLightOnOff", ["KEY_KBDILLUMTOGGLE"]),
    ("XF86Display", ["KEY_SWITCHVIDEOMODE"]), ("XF86ScreenSaver", ["KEY_SCREENLOCK"]),
    ("XF86PowerOff", ["KEY_POWER"]), ("XF86Sleep", ["KEY_SLEEP"]),
    ("XF86Suspend", ["KEY_SUSPEND"]), ("XF86WakeUp", ["KEY_WAKEUP"]),
    ("XF86TouchpadToggle", ["KEY_TOUCHPAD_TOGGLE"]),
    ("XF86TouchpadOn", ["KEY_TOUCHPAD_ON"]), ("XF86TouchpadOff", ["KEY_TOUCHPAD_OFF"]),
    ("XF86WLAN", ["KEY_WLAN"]), ("XF86Bluetooth", ["KEY_BLUETOOTH"]), ("XF86RFKill", ["KEY_RFKILL"]),

    // Browsing, programs and documents.
    ("XF86Back", ["KEY_BACK"]), ("XF86Forward", ["KEY_FORWARD"]),
    ("XF86Reload", ["KEY_REFRESH"]), ("XF86Refresh", ["KEY_REFRESH"]),
    ("XF86HomePage", ["KEY_HOMEPAGE"]), ("XF86Search", ["KEY_SEARCH"]),
    ("XF86Favorites", ["KEY_BOOKMARKS"]), ("XF86WWW", ["KEY_WWW"]), ("XF86Mail", ["KEY_MAIL"]),
    ("XF86Calculator", ["KEY_CALC"]), ("XF86Explorer", ["KEY_FILE"]),
    ("XF86MyComputer", ["KEY_COMPUTER"]), ("XF86Tools", ["KEY_CONFIG"]),
    ("XF86MenuKB", ["KEY_MENU"]), ("XF86WebCam", ["KEY_CAMERA"]),
    ("XF86Copy", ["KEY_COPY"]), ("XF86Cut", ["KEY_CUT"]), ("XF86Paste", ["KEY_PASTE"]),
    ("XF86Open", ["KEY_OPEN"]), ("XF86New", ["KEY_NEW"]), ("XF86Save", ["KEY_SAVE"]),
    ("XF86Close", ["KEY_CLOSE"]), ("XF86Send", ["KEY_SEND"]), ("XF86Reply", ["KEY_REPLY"]),
    ("XF86MailForward", ["KEY_FORWARDMAIL"]), ("XF86Documents", ["KEY_DOCUMENTS"]),
    ("XF86ScrollUp", ["KEY_SCROLLUP"]), ("XF86ScrollDown", ["KEY_SCROLLDOWN"]),
]
