print("tapsim: not yet")
