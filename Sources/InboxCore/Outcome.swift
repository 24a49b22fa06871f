/// What a rich-payload decoder produced: the value, or the precise reason the card must degrade.
enum Outcome<Value> {
  case ok(Value)
  case fail(String)
}
