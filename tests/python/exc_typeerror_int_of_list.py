print(int("3"))
int([1])
