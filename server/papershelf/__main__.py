from papershelf.cli import main

main()
