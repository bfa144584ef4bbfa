/// The colours of a ``MarblePicture``, for a light or a dark page. Both keep dark text on light
/// marbles; lines, titles and symbols change with the page.
struct MarblePalette {
    var text: String
    var secondaryText: String
    var line: String
    var boxFill: String
    var boxStroke: String
    var marbleStroke: String
    var marbleText: String
    var failure: String
    var cancellation: String
    /// The marbles' fills: the same value keeps its colour on every line of a picture.
    var fills: [String]

    static let light = MarblePalette(
        text: "#1d1d1f", secondaryText: "#6e6e73", line: "#6e6e73", boxFill: "#f2f2f7", boxStroke: "#c7c7cc",
        marbleStroke: "#3a3a3c", marbleText: "#1d1d1f", failure: "#d70015", cancellation: "#c93400",
        fills: ["#ffd84d", "#8fd3f4", "#ffb86b", "#9ee6a8", "#d4a8f0", "#ffa8bd", "#9fe3dd", "#d9c3a0"])

    static let dark = MarblePalette(
        text: "#f5f5f7", secondaryText: "#a1a1a6", line: "#a1a1a6", boxFill: "#2c2c2e", boxStroke: "#545458",
        marbleStroke: "#f5f5f7", marbleText: "#1d1d1f", failure: "#ff6961", cancellation: "#ffb340",
        fills: ["#ffd60a", "#64d2ff", "#ff9f0a", "#63e6a0", "#da8fff", "#ff8ba7", "#66d4cf", "#d6b98c"])
}
