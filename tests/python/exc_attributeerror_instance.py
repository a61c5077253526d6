class Net:
    def __init__(self):
        self.layers = 3
n = Net()
print(n.layers)
print(n.depth)
