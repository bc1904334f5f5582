import Foundation
import Relata

print("ok")
