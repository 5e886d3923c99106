package main

import "fmt"

func main() {
	for i := 0; i < 3; i++ {
		fmt.Println("tick", i)
	}
}

func add(a int, b int) int {
	return a + b
}
