import JSON
import Testing

struct JSONValueTests {
  @Test func integersKeepAllSixtyFourBits() throws {
    for number: Int64 in [0, -1, 9_007_199_254_740_993, .max, .min] {
      let value = try JSONValue.parse(String(number))
      #expect(value == .int(number))
      #expect(value.jsonString == String(number))
    }
  }

  @Test func doublesRoundTripToTheSameValue() throws {
    for number in [0.1, -2.5, 1e300, 123456.789] {
      let written = JSONValue.double(number).jsonString
      #expect(try JSONValue.parse(written) == .double(number), "\(written)")
    }
  }

  @Test func nonFiniteDoublesBecomeNull() {
    #expect(JSONValue.double(.nan).jsonString == "null")
    #expect(JSONValue.double(.infinity).jsonString == "null")
  }

  @Test func embeddedNulIsKeptInStringsAndRefusedInKeys() throws {
    let value = try JSONValue.parse(#"{"key": "a\u0000b"}"#)
    #expect(value["key"] == .string("a\u{0}b"))
    #expect(value.jsonString == #"{"key":"a\u0000b"}"#)
    let error = #expect(throws: JSONError.self) { try JSONValue.parse(#"{"k\u0000ey": 1}"#) }
    #expect(error?.kind == .nulInKey)
  }

  @Test func objectKeyOrderIsPreservedOnOutput() {
    var object = JSONObject()
    object["zeta"] = 1
    object["alpha"] = 2
    object["mid"] = 3
    object["alpha"] = 4
    #expect(JSONValue.object(object).jsonString == #"{"zeta":1,"alpha":4,"mid":3}"#)
  }

  @Test func objectEqualityIgnoresOrder() {
    let left: JSONValue = ["a": 1, "b": [true, nil]]
    let right: JSONValue = ["b": [true, nil], "a": 1]
    #expect(left == right)
    #expect(left.hashValue == right.hashValue)
    #expect(left != ["a": 1, "b": [true]])
  }

  @Test func largeObjectsStayCorrectPastTheIndexThreshold() {
    var object = JSONObject()
    for index in 0..<100 { object["k\(index)"] = .int(Int64(index)) }
    object["k50"] = nil
    object["k7"] = "seven"
    #expect(object.count == 99)
    #expect(object["k50"] == nil)
    #expect(object["k99"] == 99)
    #expect(object["k7"] == "seven")
    #expect(object.keys.first == "k0")
    #expect(object.removing(["k0", "k1"]).count == 97)
  }

  @Test func depthLimitIsConfigurable() throws {
    let nested = String(repeating: "[", count: 10) + String(repeating: "]", count: 10)
    #expect(throws: JSONError.self) { try JSONValue.parse(nested, options: JSONReadOptions(maxDepth: 9)) }
    #expect(try JSONValue.parse(nested, options: JSONReadOptions(maxDepth: 10)).arrayValue?.count == 1)
  }

  @Test func errorsSayWhere() {
    do {
      _ = try JSONValue.parse("{\n  \"a\": tru\n}")
      Issue.record("expected a parse error")
    } catch {
      #expect(error.kind == .syntax)
      #expect(error.line == 2)
      #expect(error.position > 0)
    }
  }

  @Test func typedAccessors() {
    let value: JSONValue = ["s": "x", "i": 3, "d": 2.0, "f": 2.5, "b": false, "n": nil, "a": [1], "o": [:]]
    #expect(value["s"]?.stringValue == "x")
    #expect(value["i"]?.intValue == 3)
    #expect(value["d"]?.intValue == 2)
    #expect(value["f"]?.intValue == nil)
    #expect(value["f"]?.doubleValue == 2.5)
    #expect(value["b"]?.boolValue == false)
    #expect(value["n"]?.isNull == true)
    #expect(value["a"]?.arrayValue == [1])
    #expect(value["o"]?.objectValue?.isEmpty == true)
    #expect(value["missing"] == nil)
    #expect(value["s"]?.intValue == nil)
    #expect(JSONValue.array([]).typeName == "array")
  }
}
