import { file, type EvalTask } from '../task.ts';
import { packageJson, TEST_HEAD } from './common.ts';

const shapes = (circle: string) => file`
export class Square {
    constructor(side) {
        this.side = side;
    }

    area() {
        return this.side * this.side;
    }

    toString() {
        return this.constructor.name + ' with area ' + this.area().toFixed(1);
    }
}

export class Circle {
    constructor(radius) {
        this.radius = radius;
    }

    area() {
        return Math.PI * this.radius * this.radius;
    }

    toString() {
${circle}
    }
}
`;
const task: EvalTask = {
  id: 'class-tostring',
  title: 'Two identical methods, only one changes',
  statement:
    'Circle#toString in src/shapes.js must also give the radius: "Circle r=2 with area 12.6". Square#toString must stay as it is.',
  mechanisms: ['repeated-span', 'indentation'],
  files: {
    'package.json': packageJson('shapes'),
    'src/shapes.js': shapes(`        return this.constructor.name + ' with area ' + this.area().toFixed(1);`),
    'test/shapes.test.js':
      TEST_HEAD +
      file`
import { Circle } from '../src/shapes.js';

test('circle names its radius', () => {
  assert.equal(String(new Circle(2)), 'Circle r=2 with area 12.6');
});
`,
  },
  grader: {
    'shapes.test.js':
      TEST_HEAD +
      file`
import { Circle, Square } from '../src/shapes.js';

test('circle changed, square kept', () => {
  assert.equal(String(new Circle(1)), 'Circle r=1 with area 3.1');
  assert.equal(String(new Square(3)), 'Square with area 9.0');
});
`,
  },
  solution: {
    'src/shapes.js': shapes(`        return 'Circle r=' + this.radius + ' with area ' + this.area().toFixed(1);`),
  },
};
export default task;
