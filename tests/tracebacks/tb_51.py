y = {x: 1/0 for x in [1]}
