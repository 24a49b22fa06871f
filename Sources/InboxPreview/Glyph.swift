/// The few icons the cells draw, as inline SVG so the page needs no file or font.
enum Glyph {
  static let pin =
    "<svg viewBox=\"0 0 24 24\" width=\"14\" height=\"14\" aria-hidden=\"true\"><path fill=\"currentColor\" "
    + "d=\"M15 2l7 7-2 1-3.5 3.5.5 4.5-2 2-4-4-5 5-1-1 5-5-4-4 2-2 4.5.5L14 4z\"/></svg>"
  static let play =
    "<svg viewBox=\"0 0 24 24\" width=\"28\" height=\"28\" aria-hidden=\"true\"><path fill=\"currentColor\" "
    + "d=\"M8 5v14l11-7z\"/></svg>"
  static let wallet =
    "<svg viewBox=\"0 0 24 24\" width=\"20\" height=\"20\" aria-hidden=\"true\">"
    + "<rect x=\"3\" y=\"5\" width=\"18\" height=\"14\" rx=\"3\" fill=\"#fff\"/>"
    + "<rect x=\"3\" y=\"8\" width=\"18\" height=\"3\" fill=\"#34aadc\"/>"
    + "<rect x=\"3\" y=\"11\" width=\"18\" height=\"3\" fill=\"#ff9500\"/>"
    + "<rect x=\"3\" y=\"14\" width=\"18\" height=\"2\" fill=\"#ff3b30\"/></svg>"
  static let refresh =
    "<svg viewBox=\"0 0 24 24\" width=\"16\" height=\"16\" aria-hidden=\"true\"><path fill=\"currentColor\" "
    + "d=\"M17.6 6.4A8 8 0 1 0 20 12h-2a6 6 0 1 1-1.8-4.2L13 11h7V4z\"/></svg>"
}
