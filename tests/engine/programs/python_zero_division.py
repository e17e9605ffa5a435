import torch
n = sum([])
m = n ** -1
k = 1.0 / n
j = 1 / n
print(n, 0.0 ** 0)
