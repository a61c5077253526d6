print(float("1.5"))
float("one")
