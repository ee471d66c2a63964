// Fuzz target: `emit`'s JSON writer, fed Lua values built from the input by a
// rule, through the real GestureScript API (load, dispatch, host.emit).
import GestureCore
import GestureScript

/// The rule: it decodes the bytes it gets (hex, in g.device) into a Lua value
/// (nil, booleans, integers, floats of any bit pattern, strings of any bytes,
/// tables with any keys, shared and cyclic tables, deep nesting) and emits it,
/// directly or from inside a coroutine.
let emitRules = #"""
local specials = { 0/0, 1/0, -1/0, 1e300, -1e300, 2^53, 2^53 + 1, 2^63, -2^63, math.maxinteger,
                   math.mininteger, -0.0, 5e-324, 0.1, 1e15, 1e16 }

local function decoder(data)
  local pos = 1
  local tables = {}
  local function byte()
    local b = data:byte(pos)
    pos = pos + 1
    return b or 0
  end
  local value
  local function fill(t, n, depth)
    for _ = 1, n do
      local k, v = value(depth + 1), value(depth + 1)
      if k ~= nil and k == k then t[k] = v end
    end
  end
  value = function(depth)
    if pos > #data or depth > 200 then return nil end
    local op = byte() % 13
    if op == 0 then return nil
    elseif op == 1 then return false
    elseif op == 2 then return true
    elseif op == 3 then return byte() - 128
    elseif op == 4 then
      if pos + 7 > #data then return 0 end
      local v
      v, pos = string.unpack("<i8", data, pos)
      return v
    elseif op == 5 then
      if pos + 7 > #data then return 0.5 end
      local v
      v, pos = string.unpack("<d", data, pos)
      return v
    elseif op == 6 then
      local n = byte()
      local s = data:sub(pos, pos + n - 1)
      pos = pos + n
      return s
    elseif op == 7 then
      local t = {}
      tables[#tables + 1] = t
      fill(t, byte() % 16, depth)
      return t
    elseif op == 8 then
      local t = {}
      tables[#tables + 1] = t
      for i = 1, byte() % 32 do t[i] = value(depth + 1) end
      return t
    elseif op == 9 then
      if #tables == 0 then return {} end
      return tables[byte() % #tables + 1]
    elseif op == 10 then
      local n = byte()
      local inner = value(depth + 1)
      for _ = 1, n do inner = { inner } end
      return inner
    elseif op == 11 then
      local t = {}
      tables[#tables + 1] = t
      t[specials[byte() % #specials + 1]] = value(depth + 1)
      return t
    else
      return specials[byte() % #specials + 1]
    end
  end
  return value
end

local function unhex(s)
  return (s:gsub("%x%x", function(h) return string.char(tonumber(h, 16)) end))
end

on("tap", function(g)
  local data = unhex(g.device or "")
  local mode = data:byte(1) or 0
  local value = decoder(data:sub(2))
  local name, fields = value(0), value(0)
  if mode & 1 == 0 then name = "fuzz" end
  if mode & 2 == 0 and type(fields) ~= "table" then fields = { value = fields } end
  if mode & 4 == 0 then
    pcall(emit, name, fields)
  else
    pcall(coroutine.wrap(function() emit(name, fields) end))
  end
end)
"""#

final class FuzzHost: ScriptHost {
    var device = ""
    var lines = 0

    func emit(line: String) {
        lines += 1
        if let problem = StrictJSON.check(line) {
            fatalError("emit wrote a line that is not one JSON object (\(problem)): \(line)")
        }
        if !line.hasPrefix(#"{"action":"#) { fatalError("emit's line does not start with action: \(line)") }
    }

    func log(_ message: String) {}
    func deviceName(_ device: Int) -> String? { self.device }
}

private let hexDigits = Array("0123456789abcdef".utf8)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    var hex: [UInt8] = []
    hex.reserveCapacity(size * 2)
    for b in bytes {
        hex.append(hexDigits[Int(b >> 4)])
        hex.append(hexDigits[Int(b & 15)])
    }
    let host = FuzzHost()
    host.device = String(decoding: hex, as: UTF8.self)
    // A fresh state each time: a crash reproduces from its input alone.
    guard let runtime = ScriptRuntime(host: host, options: ScriptOptions(memoryLimit: 16 << 20)) else {
        fatalError("no Lua state")
    }
    do {
        try runtime.load(source: emitRules, chunkName: "@emit-fuzz.lua")
    } catch {
        fatalError("the fuzz rule does not load: \(error.problems)")
    }
    let tap = GestureEvent(kind: .tap, phase: .ended, fingers: 1, time: 1, taps: 1)
    runtime.dispatch(Delivery(rule: RuleID(0), event: tap))
    return 0
}
