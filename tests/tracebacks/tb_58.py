y = [x for x in undefined_it]
