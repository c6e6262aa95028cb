import FieldGuide
print("x")
