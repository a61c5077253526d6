class Dog:
    species = "canis"
    count = 0
    def __init__(self, name):
        self.name = name
        Dog.count += 1
a = Dog("rex")
b = Dog("fido")
print(a.species, b.species, Dog.species)
print(Dog.count)
a.species = "wolf"
print(a.species, b.species, Dog.species)
Dog.species = "lupus"
print(a.species, b.species)
