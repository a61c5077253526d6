y = 1/0 # hi
