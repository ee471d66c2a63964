---@meta gesturemap
-- Definitions of gesturemap's rule language for lua-language-server:
-- completion, hover and type checks in an editor. Nothing here runs; every
-- body is empty. docs/lua-api.md is the full reference, docs/editor.md says
-- how to use this file. A test compares it with what the runtime registers.

-- ---------------------------------------------------------------- words

---@alias gesturemap.Kind
---| "swipe"
---| "tap"
---| "long_press"
---| "pan"
---| "pinch"
---| "rotate"
---| "edge_swipe"
---| "shape"
---| "stroke" # drawn with a held mouse button (a shared mouse)
---| "chord" # a mouse button held, then another pressed or the wheel turned (a shared mouse)
---| "click" # a touchpad's physical click, by finger count and place
---| string # the name of a kind defined with recognizer()

---@alias gesturemap.Direction
---| "left"
---| "right"
---| "up"
---| "down" # swipe and pan
---| "up-left"
---| "up-right"
---| "down-left"
---| "down-right" # swipe and pan, diagonals
---| "in"
---| "out" # pinch
---| "clockwise"
---| "counterclockwise" # rotate

---@alias gesturemap.Edge "left" | "right" | "top" | "bottom"

---@alias gesturemap.Phase "began" | "changed" | "ended" | "cancelled"

---@alias gesturemap.TouchPhase "began" | "moved" | "stationary" | "ended" | "cancelled"

---@alias gesturemap.Fingers 1 | 2 | 3 | 4 | 5 | "any"

---@alias gesturemap.ShapeName
---| "arrow"
---| "caret"
---| "check"
---| "circle"
---| "delete_mark"
---| "left_curly_brace"
---| "left_sq_bracket"
---| "pigtail"
---| "question_mark"
---| "rectangle"
---| "right_curly_brace"
---| "right_sq_bracket"
---| "star"
---| "triangle"
---| "v"
---| "x"
---| string # a template of your own, from shapes.jsonl

--- A gesture in words: finger count, double/triple, kind, direction or
--- "from" an edge, "with N resting". Case, hyphens and spaces do not matter.
---@alias gesturemap.Phrase
---| "tap"
---| "double tap"
---| "triple tap"
---| "two-finger tap"
---| "swipe left"
---| "swipe right"
---| "swipe up"
---| "swipe down"
---| "two-finger swipe left"
---| "three-finger swipe up"
---| "long press"
---| "pan"
---| "two-finger pan"
---| "pinch in"
---| "pinch out"
---| "rotate clockwise"
---| "edge swipe from left"
---| "shape circle"
---| string

---@alias gesturemap.Button "left" | "right" | "middle"

--- "ctrl", "ctrl+shift", "none"...: exactly these modifier keys held.
---@alias gesturemap.Modifiers string

-- ---------------------------------------------------------------- on()

--- The table form of a gesture spec.
---@class gesturemap.Spec
---@field kind gesturemap.Kind the kind (required)
---@field fingers? gesturemap.Fingers 1 to 5 or "any"; default 1 (2 for pinch and rotate)
---@field direction? gesturemap.Direction|string swipe/pan: 8 ways; pinch: in, out; rotate: clockwise, counterclockwise; stroke: its arms in order, "left-up" (an L), "up,left" where hyphens would spell a diagonal; default every direction
---@field taps? 1|2|3 tap: how many taps; default 1
---@field edge? gesturemap.Edge edge swipe: the edge it starts from (required for edge_swipe); click: the edge whose zone it is in
---@field resting? integer 0 to 4 contacts resting still beside the fingers; default any number
---@field name? gesturemap.ShapeName shape: which shape; default any shape
---@field min_score? number shape: the least score, 0 to 1; default `shape_min_score`
---@field button? "left"|"right"|"middle"|"side"|"extra" stroke: the mouse button held, default `stroke_button`; chord: the button held first (required, but for a chord of the wheel with the modifiers option: ctrl + wheel)
---@field press? "left"|"right"|"middle"|"side"|"extra" chord: the button pressed while `button` is held (a rocker)
---@field wheel? "up"|"down"|"left"|"right" chord: the wheel turned while `button` is held
---@field where? gesturemap.Edge click: the half of the touchpad clicked on; default anywhere

--- One function per phase of a continuous gesture.
---@class gesturemap.PhaseHandlers
---@field began? fun(g: gesturemap.Gesture)
---@field changed? fun(g: gesturemap.Gesture)
---@field ended? fun(g: gesturemap.Gesture)
---@field cancelled? fun(g: gesturemap.Gesture)

--- on()'s third argument.
---@class gesturemap.RuleOptions
---@field name? string names the rule, in messages and for simultaneous_with/requires_failure_of
---@field description? string words for people
---@field mode? string live only in this mode (see mode())
---@field cooldown? number seconds on the input's clock before the rule may fire again
---@field device? string a Lua pattern the device's name must match, such as "^ELAN"
---@field repeat? number pans and long presses: call the handler once per this many mm of travel (write ["repeat"])
---@field simultaneous_with? string|string[] rules whose gestures may be recognized together with this one
---@field requires_failure_of? string|string[] rules that must fail first in this touch sequence
---@field exclusive? boolean true: this rule's gesture runs with no other
---@field app? string|string[] Lua pattern(s) for the focused application's id
---@field modifiers? gesturemap.Modifiers live only while exactly these modifier keys are held
---@field claim? boolean true: on a shared device, the desktop sees none of this gesture's touches

--- What on() returns: turns its rule off and on.
---@class gesturemap.Binding
local Binding = {}

--- Turns the rule back on.
function Binding:enable() end

--- Turns the rule off until :enable().
function Binding:disable() end

--- Removes the rule for good.
function Binding:remove() end

-- ---------------------------------------------------------------- the gesture table

--- The application that has the focus.
---@class gesturemap.App
---@field id string X11 WM_CLASS class or Wayland app_id, such as "org.pwmt.zathura"
---@field title string the window's title
---@field pid? integer nil when the desktop does not say

--- The modifier keys held; an empty table when none.
---@class gesturemap.HeldModifiers
---@field ctrl? true
---@field shift? true
---@field alt? true
---@field super? true

--- What a handler receives. A recognizer() kind adds the fields its
--- began/changed/ended gave: declare them in a class of your own that
--- extends this one (`---@class Zigzag: gesturemap.Gesture`), so that a
--- misspelt field of g is still a warning.
---@class gesturemap.Gesture
---@field kind gesturemap.Kind the kind, or a recognizer()'s name
---@field phase gesturemap.Phase discrete gestures: "ended"
---@field fingers integer fingers of the gesture, resting contacts not counted
---@field direction? gesturemap.Direction as in the spec
---@field taps integer as in the spec
---@field edge? gesturemap.Edge edge swipes: the edge
---@field resting integer contacts resting beside the fingers
---@field t number the input's time of this event, s
---@field duration number s since the first finger landed
---@field dx number stroke (swipe) or translation (pan), mm; y grows downward
---@field dy number stroke (swipe) or translation (pan), mm; y grows downward
---@field distance number length of the stroke or translation, mm
---@field velocity number mm/s: mean speed (swipes), recent speed (pans)
---@field x number centroid, mm from the top-left corner
---@field y number centroid, mm from the top-left corner
---@field nx? number centroid as 0..1 of the surface; nil when its size is unknown
---@field ny? number centroid as 0..1 of the surface; nil when its size is unknown
---@field scale number pinch: spread now over spread at the start
---@field rotation number rotate: degrees, positive clockwise on screen
---@field device string the device's name, or the input's
---@field app? gesturemap.App the focused application; nil when none is known
---@field modifiers gesturemap.HeldModifiers the modifier keys held
---@field step? 1|-1 with `repeat`: one step along (+1) or back (-1); nil at the start
---@field shape? gesturemap.ShapeName shape: the shape drawn
---@field button? "left"|"right"|"middle"|"side"|"extra" stroke: the mouse button it was drawn with (`direction` is then its arms, "left-up"); chord: the button held
---@field press? "left"|"right"|"middle"|"side"|"extra" chord: the button pressed while `button` was held
---@field wheel? "up"|"down"|"left"|"right" chord: the way the wheel turned while `button` was held
---@field score? number shape: how closely it matched, 1 exactly, down to 0

--- Registers a rule: when the gesture in `spec` is recognized, `handler` runs.
--- A function runs once per gesture (discrete ones when recognized, continuous
--- ones when they begin); a table of phase functions runs for every phase.
---@param spec gesturemap.Phrase|gesturemap.Spec a phrase such as "two-finger swipe left", or a table
---@param handler fun(g: gesturemap.Gesture)
---@param options? gesturemap.RuleOptions
---@return gesturemap.Binding
---@overload fun(spec: gesturemap.Phrase|gesturemap.Spec, handler: gesturemap.PhaseHandlers, options?: gesturemap.RuleOptions): gesturemap.Binding
function on(spec, handler, options) end

-- ---------------------------------------------------------------- timers

--- A pending timer.
---@class gesturemap.Timer
local Timer = {}

--- Stops the timer before it runs (again).
function Timer:cancel() end

--- Runs `f` once, `seconds` later on the input's clock.
---@param seconds number
---@param f fun()
---@return gesturemap.Timer
function after(seconds, f) end

--- Runs `f` every `seconds` (at least 0.001) on the input's clock.
---@param seconds number
---@param f fun()
---@return gesturemap.Timer
function every(seconds, f) end

-- ---------------------------------------------------------------- recognizer()

--- A touch in a recognizer's frame.
---@class gesturemap.Touch
---@field id integer
---@field phase gesturemap.TouchPhase
---@field x number mm
---@field y number mm
---@field vx number mm/s
---@field vy number mm/s
---@field resting boolean a contact resting beside the hand

--- One frame of touches; reused from frame to frame: copy what you keep.
---@class gesturemap.Frame
---@field t number the frame's time on the input's clock, s
---@field width? number the surface, mm; nil when unknown
---@field height? number the surface, mm; nil when unknown
---@field touches gesturemap.Touch[] every contact down, plus those lifting in this frame
---@field fingers integer the entries of touches that are not resting

--- A recognizer's own table, one per device: keep your state in it.
---@class gesturemap.Recognizer
---@field state "possible"|"began"|"changed" where the gesture stood when the call began
---@field name string the recognizer's name
---@field [string] any your own state
local Recognizer = {}

--- possible -> began: a continuous gesture starts. `fields` show in `g`.
---@param fields? table<string, number|string|boolean>
function Recognizer:began(fields) end

--- began/changed -> changed.
---@param fields? table<string, number|string|boolean>
function Recognizer:changed(fields) end

--- possible -> ended (a discrete gesture), or began/changed -> ended.
---@param fields? table<string, number|string|boolean>
function Recognizer:ended(fields) end

--- possible -> failed, or began/changed -> cancelled. `reason` shows in --trace.
---@param reason? string
function Recognizer:fail(reason) end

--- Calls timeout(r, t) at input time `t` (later than now); nil clears it.
---@param t number|nil
function Recognizer:deadline(t) end

--- recognizer()'s second argument.
---@class gesturemap.RecognizerFunctions
---@field frame fun(r: gesturemap.Recognizer, f: gesturemap.Frame) every frame while undecided or running
---@field timeout? fun(r: gesturemap.Recognizer, t: number) when the deadline passes; without it, the recognizer fails
---@field reset? fun(r: gesturemap.Recognizer) when it goes back to possible: clear your state
---@field description? string words for people

--- Defines a kind of gesture in Lua, which rules bind by `name` like a
--- built-in one. Call it while the rules load, before the rules that bind it.
---@param name string a word such as "zigzag"
---@param functions gesturemap.RecognizerFunctions
function recognizer(name, functions) end

-- ---------------------------------------------------------------- context

--- The focused application (as g.app), or nil; works in timers too.
---@return gesturemap.App|nil
function app() end

--- Switches to mode `name`, or with no argument reads it; the first is "default".
---@param name? string
---@return string mode the mode now
function mode(name) end

-- ---------------------------------------------------------------- config

--- config{}'s keys: recognizer thresholds and a few settings, with unit,
--- range and default (docs/defaults.md gives the sources).
---@class gesturemap.Config
---@field finger_settle? number s, 0 to 1, default 0.1: finger-count changes settle this long
---@field swipe_min_distance? number mm, 1 to 200, default 10: shortest swipe
---@field swipe_max_angle? number degrees, 5 to 44, default 44: widest angle off the axis
---@field swipe_max_duration? number s, 0.05 to 5, default 2: longest swipe, from its onset
---@field swipe_min_speed? number mm/s, 0 to 2000, default 50: slowest swipe judged at the lift
---@field swipe_commit_speed? number mm/s, 0 to 5000, default 120: a stroke this fast is a swipe while still down
---@field tap_max_duration? number s, 0.02 to 2, default 0.3: longest tap
---@field tap_max_movement? number mm, 0.1 to 30, default 5: most a tap may move
---@field tap_interval? number s, 0.05 to 2, default 0.3: longest gap between taps of a double tap
---@field tap_max_distance? number mm, 1 to 100, default 10: farthest apart taps of a double tap may land
---@field long_press_duration? number s, 0.1 to 10, default 0.5: how long a long press holds
---@field long_press_max_movement? number mm, 0.1 to 50, default 2.5: most a long press may move
---@field pan_min_distance? number mm, 0 to 50, default 5: how far a pan moves before it begins
---@field pinch_min_scale? number ratio, 0.01 to 0.9, default 0.15: least change of spread for a pinch
---@field pinch_min_spread? number mm, 0.5 to 100, default 5: least change of distance for a pinch
---@field rotate_min_angle? number degrees, 1 to 180, default 15: least turn for a rotate
---@field edge_zone? number mm, 0.5 to 50, default 5: how near the edge an edge swipe lands
---@field shape_min_score? number ratio, 0 to 1, default 0.8: least score of a shape
---@field shape_min_size? number mm, 2 to 500, default 8: smallest shape across
---@field shape_gap? number s, 0 to 2, default 0.5: strokes this close are one drawing
---@field typing_quiet? number s, 0 to 5, default 0.5: touchpads stay quiet this long after typing; 0 turns it off
---@field swipe_settle? number s, 0 to 1, default 0.06: a swipe's finger count is final this long after the first landing
---@field claim_fingers? integer fingers, 0 to 10, default 0: with sharing, sequences of this many fingers are gesturemap's alone; 0 none
---@field share? boolean|0|1 false or true (0 or 1), default false: share live devices with the desktop, as run --share
---@field pointer_gain? number counts/mm, 0.1 to 200, default 15: the virtual pointer's counts a millimetre
---@field share_mice? boolean|0|1 false or true (0 or 1), default false: with sharing, share mice too, as run --share-mouse
---@field mouse_dpi? integer dpi (0: udev's MOUSE_DPI, else 1000), 0 to 100000, default 0: a shared mouse's resolution
---@field stroke_button? "left"|"right"|"middle"|"side"|"extra" a button, default "right": the mouse button strokes are drawn with when a rule names none
---@field stroke_threshold? number mm, 0.1 to 5, default 0.4064: a shared mouse's held press is a stroke past this travel, a click under it
---@field stroke_timeout? number s, 0.03 to 5, default 0.25: a shared mouse's held press still this long, or a stroke resting undecided, goes to the desktop

--- Sets thresholds by name; an unknown name or a value out of range is a load error.
---@param thresholds gesturemap.Config
function config(thresholds) end

-- ---------------------------------------------------------------- actions

--- Writes one JSON line to stdout: action and t (the gesture's time), then the fields.
---@param name string
---@param fields? table nested tables become arrays or objects
function emit(name, fields) end

--- exec()'s (and shell()'s) options.
---@class gesturemap.ExecOptions
---@field timeout? number seconds, then the program's process group is killed
---@field env? table<string, string|number> more environment variables
---@field cwd? string the working directory

--- Runs a program, never through a shell, without waiting for it; its stdout
--- goes to stderr. Returns true, or false and a message when it cannot start.
---@param argv string[] the program and its arguments, as in { "xdotool", "key", "Next" }
---@param options? gesturemap.ExecOptions
---@return boolean ok
---@return string? message
function exec(argv, options) end

--- Runs `/bin/sh -c cmdline`, for a pipe or a glob; as exec() otherwise.
---@param cmdline string
---@param options? gesturemap.ExecOptions
---@return boolean ok
---@return string? message
function shell(cmdline, options) end

--- Presses keys through a virtual keyboard, in order, then releases them in
--- reverse: "PageDown", "ctrl+alt+Right", "XF86AudioRaiseVolume".
---@param combo string
function key(combo) end

-- ---------------------------------------------------------------- pointer and touchpad

--- One virtual mouse.
pointer = {}

--- Relative motion in mm of finger travel, times `pointer_gain` counts a mm.
---@param dx number mm
---@param dy number mm
function pointer.move(dx, dy) end

--- A button down; a press of a button already down sends nothing.
---@param button? gesturemap.Button default "left"
function pointer.press(button) end

--- A button up; `after` (0 to 5 s) keeps it down that much longer.
---@param button? gesturemap.Button default "left"
---@param options? { after?: number }
function pointer.release(button, options) end

--- `count` (1 to 3) presses and releases, 30 ms apart.
---@param button? gesturemap.Button default "left"
---@param count? 1|2|3 default 1
function pointer.click(button, count) end

--- The wheel, in notches: positive dy scrolls down, positive dx right.
---@param dx number notches
---@param dy number notches
function pointer.scroll(dx, dy) end

--- Fingers on one virtual touchpad, for the desktop's own touchpad gestures.
touchpad = {}

--- 2 to 5 fingers land side by side (fingers already down lift first).
---@param fingers 2|3|4|5
function touchpad.begin(fingers) end

--- Every finger moves dx, dy mm.
---@param dx number mm
---@param dy number mm
function touchpad.move(dx, dy) end

--- The fingers lift.
function touchpad.finish() end

-- ---------------------------------------------------------------- messages, state, modules

--- Writes to stderr with the calling line; log.warn and log.error add their level.
---@class gesturemap.Log
---@overload fun(...: any)
log = {}

--- As log(...).
---@param ... any
function log.info(...) end

--- "rules.lua:13: warning: message".
---@param ... any
function log.warn(...) end

--- "rules.lua:13: error: message".
---@param ... any
function log.error(...) end

--- As log.info: to stderr, with the calling line.
---@param ... any
function print(...) end

--- Carried over a reload (a deep copy of strings, numbers, booleans and tables).
---@type table<string, any>
state = {}

--- Loads the Lua module `name` from the rules file's directory only, once:
--- "lib.paging" is lib/paging.lua beside the rules file.
---@param name string
---@return any
function require(name) end

-- ---------------------------------------------------------------- the sandbox's os

--- Only these four of os are in the sandbox (no os.execute, no io, debug or package).
os = {}

--- As Lua's os.time.
---@param date? table year, month, day, hour, min, sec, isdst
---@return integer
function os.time(date) end

--- CPU time of the program, s.
---@return number
function os.clock() end

--- As Lua's os.date.
---@param format? string
---@param time? integer
---@return string|table
function os.date(format, time) end

--- An environment variable, or nil.
---@param name string
---@return string|nil
function os.getenv(name) end
