class A:
    pass
print(A().missing())
