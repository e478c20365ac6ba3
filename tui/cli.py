def main(argv=None):
    print("ankh")
