x, y, z = "ab"
