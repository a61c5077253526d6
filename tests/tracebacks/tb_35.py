s = "abc"
s.upper().nope()
