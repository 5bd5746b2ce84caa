/// Formats the online store's dollar amounts for people: always two decimals,
/// e.g. `66.9` → "$66.90", `0` → "$0.00".
public enum StorePriceFormat {
  /// `amount` rounded to the cent, as "$d.cc" (with a leading "-" if negative).
  public static func dollars(_ amount: Double) -> String {
    let cents = Int((amount * 100).rounded())
    let magnitude = cents.magnitude
    let fraction = magnitude % 100
    return (cents < 0 ? "-" : "") + "$\(magnitude / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
  }
}
