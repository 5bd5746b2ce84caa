/// The weight class a body mass index falls in, with the seed's thresholds:
/// below 18.5 underweight, from 18.5 normal, from 25 overweight, from 30 obese.
///
/// A boundary value belongs to the class above it (18.5 is normal, 25 is
/// overweight, 30 is obese), and the class is taken from the exact value, not
/// from its one-decimal display: 18.49 shows as "18.5" but is underweight.
public enum BMICategory: String, Hashable, Sendable, Codable, CaseIterable {
  case underweight = "Underweight"
  case normal = "Normal"
  case overweight = "Overweight"
  case obese = "Obese"

  /// The category of the body mass index `bmi`.
  public init(bmi: Double) {
    switch bmi {
    case ..<18.5: self = .underweight
    case 18.5..<25: self = .normal
    case 25..<30: self = .overweight
    default: self = .obese
    }
  }
}
