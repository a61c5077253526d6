assert 1 == 2, "nope"
