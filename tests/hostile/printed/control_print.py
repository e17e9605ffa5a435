import torch
print("ring\a \x1b[31mred\x7f")
